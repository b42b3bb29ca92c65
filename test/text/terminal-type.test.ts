import { describe, expect, it } from 'vitest';
import { err, out, type Writer } from '../../cli/output.js';
import { colours } from '../../cli/views/style.js';
import { renderTable } from '../../cli/views/table.js';
import { md } from '../../src/text/markdown.js';
import { joinTerminal, padTerminal, term, Terminal, terminalJson, terminalLines, terminalMarkdown, terminalMessage, terminalPath, terminalWidth } from '../../src/text/terminal.js';

const HOSTILE = 'a\x1b[2J\u202eb\nc';

describe('Terminal: text safe for a terminal, made by `term` and its builders only', () => {
  it('term keeps its literal parts, escapes every interpolated string, keeps Terminal and writes numbers as digits', () => {
    expect(String(term`\x1b[2J${HOSTILE} ${term`\r${'x'}`} ${12.5}\n`)).toBe('\x1b[2Ja\\x1b[2J\\u202eb\\nc \rx 12.5\n');
  });

  it('escaping twice changes nothing: a message src/ escaped already prints as it is', () => {
    const once = String(term`${HOSTILE}`);
    expect(String(term`${once}`)).toBe(once);
  });

  it('cannot be made from a string, nor by term called as a function', () => {
    expect(() => new Terminal(Symbol('terminal') as never, 'x')).toThrow(TypeError);
    expect(() => term(['\x1b[2J'] as unknown as TemplateStringsArray)).toThrow(TypeError);
  });

  it('builds a path, one of our messages, a join, Markdown and JSON with the same rule', () => {
    expect(String(terminalPath(`posts/${HOSTILE}.md`))).toBe('"posts/a\\x1b[2J\\u202eb\\nc.md"');
    expect(String(terminalMessage(`first ${HOSTILE}`))).toBe('first a\\x1b[2J\\u202eb\nc');
    expect(String(joinTerminal([term`${HOSTILE}`, term`x`], ', '))).toBe('a\\x1b[2J\\u202eb\\nc, x');
    expect(String(terminalMarkdown(md`${`@admin ${HOSTILE}`}\n`))).toBe('@\u200dadmin a\\\\x1b\\[2J\\\\u202eb c\n');
    expect(JSON.parse(String(terminalJson({ text: HOSTILE })))).toEqual({ text: HOSTILE });
    expect(String(terminalJson({ text: '\u202e' }))).not.toContain('\u202e');
  });

  it('measures, pads and splits by what shows on the screen', () => {
    const red = colours(true).red(term`ab`);
    expect(terminalWidth(red)).toBe(2);
    expect(String(padTerminal(term`ab`, 4, 'right'))).toBe('  ab');
    expect(terminalLines(term`a\n${'b\nc'}`).map(String)).toEqual(['a', 'b\\nc']);
  });
});

/** Never run: `tsc` (npm run typecheck) fails when a raw string reaches the terminal, so a forgotten escape cannot compile. */
export function terminalRefusesRawStrings(writer: Writer, untrusted: string): void {
  // @ts-expect-error stdout takes Terminal only
  out.write(untrusted);
  // @ts-expect-error stderr takes Terminal only
  err.write(`Error: ${untrusted}\n`);
  // @ts-expect-error a printer's writer takes Terminal only
  writer.write(untrusted);
  // @ts-expect-error a colour takes Terminal only
  colours(false).red(untrusted);
  // @ts-expect-error a table's cells are Terminal
  renderTable([{ header: 'a' }], [[untrusted]], { style: colours(false) });
  // @ts-expect-error a join's separator is one of ours
  joinTerminal([], untrusted);
  // @ts-expect-error Markdown is not Terminal: it goes through terminalMarkdown
  out.write(md`${untrusted}`);
  // @ts-expect-error a string is not Terminal
  const text: Terminal = untrusted;
  void text;
}
