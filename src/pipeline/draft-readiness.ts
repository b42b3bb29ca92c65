import type { Diagnostic } from '../diagnostics.js';
import { draftReadiness as readinessOfDraft } from '../content/readiness.js';
import { compareText } from '../text/ordering.js';
import { desiredDiagnostics, type DesiredSide } from './read-desired.js';

/**
 * Whether a draft could be scheduled as it is (`content/readiness.ts`, the one definition):
 * `missing` lists what it still needs, `ready` exactly when it is empty. The drafts of files with
 * errors are drafts too, never ready (their errors first), as the calendar shows them.
 */
export interface DraftReadiness {
  key: string;
  file: string;
  ready: boolean;
  missing: string[];
}

/** Every draft (a post without `scheduledAt`) of the desired side, those of files with errors included, by file, with what it still needs. */
export function draftReadiness(desired: Pick<DesiredSide, 'posts' | 'checkOnly' | 'contentDiagnostics' | 'checkDiagnostics'>): DraftReadiness[] {
  const byFile = new Map<string, Diagnostic[]>();
  for (const diagnostic of desiredDiagnostics(desired)) {
    if (diagnostic.file === undefined) continue;
    byFile.set(diagnostic.file, [...(byFile.get(diagnostic.file) ?? []), diagnostic]);
  }
  const drafts: DraftReadiness[] = [];
  const add = ({ key, file }: { key: string; file: string }) => {
    drafts.push({ key, file, ...readinessOfDraft({ diagnostics: byFile.get(file) ?? [] }) });
  };
  for (const post of desired.posts) if (post.shape.scheduledAt === null) add(post);
  for (const post of desired.checkOnly) if (post.shape.scheduledAt === null) add(post);
  return drafts.sort((a, b) => compareText(a.file, b.file));
}
