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
}

export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === 'error');
}
