import { NOT_READY_PREFIX, type Diagnostic } from '../diagnostics.js';
import { compareText } from '../text/ordering.js';
import type { DesiredSide } from './read-desired.js';

/**
 * Whether a draft could be scheduled as it is: `missing` lists what its accounts' publishing
 * rules still ask for (the readiness warnings, without their "not ready to schedule" prefix);
 * `ready` exactly when it is empty. Only posts of valid files are drafts here: a file with errors
 * says so in its diagnostics.
 */
export interface DraftReadiness {
  key: string;
  file: string;
  ready: boolean;
  missing: string[];
}

/** Every draft (a post without `scheduledAt`) of the desired side, by file, with what it still needs. */
export function draftReadiness(desired: Pick<DesiredSide, 'posts' | 'unchanged' | 'diagnostics'>): DraftReadiness[] {
  const missing = new Map<string, string[]>();
  for (const diagnostic of desired.diagnostics) {
    if (!isReadinessWarning(diagnostic)) continue;
    missing.set(diagnostic.file, [...(missing.get(diagnostic.file) ?? []), diagnostic.message.slice(NOT_READY_PREFIX.length)]);
  }
  const drafts: DraftReadiness[] = [];
  const add = ({ key, file }: { key: string; file: string }) => {
    const found = missing.get(file) ?? [];
    drafts.push({ key, file, ready: found.length === 0, missing: found });
  };
  for (const post of desired.posts) if (post.shape.scheduledAt === null) add(post);
  for (const post of desired.unchanged) if (post.scheduledAt === null) add(post);
  return drafts.sort((a, b) => compareText(a.file, b.file));
}

function isReadinessWarning(diagnostic: Diagnostic): diagnostic is Diagnostic & { file: string } {
  return diagnostic.readiness === true && diagnostic.severity === 'warning' && diagnostic.file !== undefined && diagnostic.message.startsWith(NOT_READY_PREFIX);
}
