import type { Diagnostic } from '../../src/diagnostics.js';
import type { Style } from './style.js';
import { terminalPath, terminalText } from '../../src/text/terminal.js';

/** `file:line:col` where known. */
export function location(diagnostic: Diagnostic): string {
  if (!diagnostic.file) return '';
  const position = diagnostic.line ? `:${diagnostic.line}${diagnostic.column ? `:${diagnostic.column}` : ''}` : '';
  return `${diagnostic.file}${position}`;
}

export function renderDiagnostics(diagnostics: readonly Diagnostic[], style: Style): string {
  return diagnostics
    .map((d) => {
      const label = d.severity === 'error' ? style.red('error') : style.yellow('warning');
      const where = d.file ? `${terminalPath(d.file)}${location(d).slice(d.file.length)}` : '';
      const lines = [`${where ? `${style.bold(where)} ` : ''}${label} ${terminalText(d.message)} ${style.dim(`[${d.code}]`)}`];
      if (d.expected !== undefined) lines.push(`    expected: ${terminalText(d.expected)}`);
      if (d.found !== undefined) lines.push(`    found:    ${terminalText(d.found)}`);
      if (d.hint !== undefined) lines.push(`    ${style.cyan('hint:')} ${terminalText(d.hint)}`);
      return lines.join('\n');
    })
    .join('\n');
}

export function diagnosticCounts(diagnostics: readonly Diagnostic[]): { errors: number; warnings: number } {
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  return { errors, warnings: diagnostics.length - errors };
}
