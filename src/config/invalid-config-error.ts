import type { Diagnostic } from '../diagnostics.js';
import { InputError } from '../errors.js';
import { terminalText } from '../text/terminal.js';

/**
 * postsync.yaml, the environment or the flags are invalid; `diagnostics` lists every problem, one
 * line each: a problem quotes names and values of postsync.yaml (a pull request writes them), so
 * its line breaks and controls are written as escapes, never as lines of their own.
 */
export class InvalidConfigError extends InputError {
  readonly diagnostics: readonly Diagnostic[];

  constructor(diagnostics: readonly Diagnostic[]) {
    const errors = diagnostics.filter((d) => d.severity === 'error');
    super(`Invalid configuration (${errors.length} problem${errors.length === 1 ? '' : 's'}):\n${errors.map((d) => `  ${terminalText(formatConfigDiagnostic(d))}`).join('\n')}`, {
      hint: 'Fix postsync.yaml (or the POSTSYNC_* variables and flags) as listed, then run the command again.',
    });
    this.diagnostics = diagnostics;
  }
}

/** `postsync.yaml:3:5: unknown field `contnet` (expected …; found …) — did you mean `content`?` */
export function formatConfigDiagnostic(diagnostic: Diagnostic): string {
  const where = [diagnostic.file, diagnostic.line, diagnostic.column].filter((part) => part !== undefined).join(':');
  const details = [diagnostic.expected && `expected ${diagnostic.expected}`, diagnostic.found && `found ${diagnostic.found}`].filter(Boolean).join('; ');
  return `${where ? `${where}: ` : ''}${diagnostic.message}${details ? ` (${details})` : ''}${diagnostic.hint ? ` — ${diagnostic.hint}` : ''}`;
}
