import type { Diagnostic } from '../../src/diagnostics.js';
import type { Style } from './style.js';
import { joinTerminal, term, terminalPath, type Terminal } from '../../src/text/terminal.js';

/** `file:line:col` where known. */
export function location(diagnostic: Diagnostic): string {
  if (!diagnostic.file) return '';
  const position = diagnostic.line ? `:${diagnostic.line}${diagnostic.column ? `:${diagnostic.column}` : ''}` : '';
  return `${diagnostic.file}${position}`;
}

export function renderDiagnostics(diagnostics: readonly Diagnostic[], style: Style): Terminal {
  const lines = diagnostics.flatMap((d) => {
    const label = d.severity === 'error' ? style.red(term`error`) : style.yellow(term`warning`);
    const where = d.file ? term`${style.bold(term`${terminalPath(d.file)}${location(d).slice(d.file.length)}`)} ` : term``;
    const lines = [term`${where}${label} ${d.message} ${style.dim(term`[${d.code}]`)}`];
    if (d.expected !== undefined) lines.push(term`    expected: ${d.expected}`);
    if (d.found !== undefined) lines.push(term`    found:    ${d.found}`);
    if (d.hint !== undefined) lines.push(term`    ${style.cyan(term`hint:`)} ${d.hint}`);
    return lines;
  });
  return joinTerminal(lines, '\n');
}

export function diagnosticCounts(diagnostics: readonly Diagnostic[]): { errors: number; warnings: number } {
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  return { errors, warnings: diagnostics.length - errors };
}
