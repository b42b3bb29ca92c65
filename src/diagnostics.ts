/**
 * A problem found in the user's input (content files, config, media). Diagnostics are collected,
 * never thrown one at a time: every bad file is reported in one run.
 * `file` is project-relative with forward slashes; `line` and `column` are 1-based.
 */
export interface Diagnostic {
  severity: 'error' | 'warning';
  /** Stable machine-readable code, e.g. `yaml-syntax`, `unknown-field`, `caption-too-long`. */
  code: string;
  message: string;
  file?: string;
  line?: number;
  column?: number;
  /** What was expected, in words a person reads. */
  expected?: string;
  /** What was found. */
  found?: string;
  /** How to fix it (e.g. "did you mean `scheduledAt`?"). */
  hint?: string;
  /**
   * Set on a publishing rule of the post's accounts (attachment counts, media limits, a required
   * caption or option): a warning while the post is a draft, an error once it is scheduled. Lets
   * views count the drafts that are not ready yet. Absent on every other diagnostic.
   */
  readiness?: true;
  /**
   * Set when the problem is about one post of the file (an occurrence of a repeat a house rule or
   * a slot holds back): an error blocks that post only, not the file's other posts.
   */
  key?: string;
}

export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === 'error');
}

/**
 * Each problem once, in order: diagnostics equal but for the post `key` they are about (the
 * occurrences of one repeat share a file, a text and targets, so they share their problems) are one.
 */
export function distinctDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  return diagnostics.filter((diagnostic) => {
    const { key: _key, ...rest } = diagnostic;
    const id = JSON.stringify(rest);
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

/** What a readiness warning's message starts with: the draft is fine, publishing it is not. */
export const NOT_READY_PREFIX = 'not ready to schedule: ';

/**
 * A broken publishing rule as it counts for `post`: on a draft (`scheduledAt` null, which includes
 * `draft: true`) a warning that says what is missing, on a scheduled post an error, the message
 * unchanged. Drafts are work in progress; only a post that is to be published must be publishable.
 */
export function readinessOf<T extends { severity: Diagnostic['severity']; message: string }>(finding: T, post: { scheduledAt: string | null }): T & { readiness: true } {
  if (post.scheduledAt !== null) return { ...finding, severity: 'error', readiness: true };
  return { ...finding, severity: 'warning', message: `${NOT_READY_PREFIX}${finding.message}`, readiness: true };
}

/** The files of the drafts that are not ready to schedule (they have a readiness warning), sorted. */
export function notReadyDraftFiles(diagnostics: readonly Diagnostic[]): string[] {
  const files = new Set<string>();
  for (const d of diagnostics) if (d.readiness === true && d.severity === 'warning' && d.file !== undefined) files.add(d.file);
  return [...files].sort();
}
