import { describe, expect, it } from 'vitest';
import { interpretPostFile } from '../../src/content/interpret-file.js';

/** The problems of one post file's text, as `[line, column, severity, code]`, and the diagnostics themselves. */
function problemsOf(text: string) {
  const { reading } = interpretPostFile(Buffer.from(text, 'utf8'), { file: 'posts/a.md', fileInContent: 'a.md', timezone: 'Europe/Berlin', accounts: { photo: '11111111-1111-4111-8111-111111111111' } });
  return { positions: reading.diagnostics.map((d) => [d.line, d.column, d.severity, d.code]), diagnostics: reading.diagnostics };
}

describe('the writer’s mistakes that used to pass in silence', () => {
  it('asks whether a date-like unknown field meant `scheduledAt` (without it the post is a draft)', () => {
    for (const field of ['schedule', 'date', 'time', 'publishAt', 'datetime', 'when', 'scheduled']) {
      const { positions, diagnostics } = problemsOf(`---\ntargets: [photo]\n${field}: 2026-12-05 10:00\n---\nText\n`);
      expect(positions, field).toEqual([[3, 1, 'error', 'unknown-field']]);
      expect(diagnostics[0]!.hint, field).toMatch(/^did you mean `scheduledAt`\?/);
    }
    expect(problemsOf('---\ntargets: [photo]\ndate: 2026-12-05 10:00\n---\nText\n').diagnostics[0]!.hint).toBe('did you mean `scheduledAt`? Without `scheduledAt` the post is a draft.');
    // Elsewhere than the top level, and for a name that is no date, the hint stays as it was.
    expect(problemsOf('---\ntargets: [photo]\ncolour: red\n---\nText\n').diagnostics[0]!.hint).toBe('Remove this field.');
  });

  it('names a tab after spaces in the indentation, at its line and column, in place of what the YAML parser makes of it', () => {
    const cases: [string, number, number][] = [
      ['---\ntargets: [photo]\noptions:\n    vidATitle: x\n  \tvidATags: [a]\n---\nText\n', 5, 3],
      ['---\ntargets: [photo]\noptions:\n  vidATitle: x\n    \tvidATags: [a]\n---\nText\n', 5, 5],
      ['---\ntargets: [photo]\n  \tdraft: true\n---\nText\n', 3, 3],
    ];
    for (const [text, line, column] of cases) {
      const { positions, diagnostics } = problemsOf(text);
      expect(positions, text).toEqual([[line, column, 'error', 'yaml-syntax']]);
      expect(diagnostics[0]!.hint, text).toBe('Indent with spaces, not tabs.');
    }
    expect(problemsOf(cases[0]![0]).diagnostics[0]!.message).toBe('a tab after 2 spaces in the indentation: YAML indents with spaces only');
    // Tabs inside a text block are the text's own.
    expect(problemsOf('---\ntargets:\n  - account: photo\n    content: |\n      Menu:\n      \tEspresso\n---\nText\n').positions).toEqual([]);
  });

  it('warns of a value in curly quotes, which is sent with its quotes, and says so on `scheduledAt` instead of `invalid-date`', () => {
    const text = '---\nscheduledAt: 2026-12-05 10:00\ntargets:\n  - account: photo\n    options:\n      vidATitle: “Saturday tasting”\n      vidATags: [‘coffee’, tasting]\n    content: “A quotation” is the writer’s own\n---\nA “quoted” word in the text is the text’s own.\n';
    const { positions, diagnostics } = problemsOf(text);
    expect(positions).toEqual([
      [6, 18, 'warning', 'curly-quotes'],
      [7, 18, 'warning', 'curly-quotes'],
    ]);
    expect(diagnostics[0]!.message).toBe('`targets[0].options.vidATitle` is in curly quotes (“ ”), which are sent as part of the text');
    expect(diagnostics[0]!.hint).toBe('Write straight quotes ("Saturday tasting") or none: Saturday tasting');

    const date = problemsOf('---\ntargets: [photo]\nscheduledAt: “2026-12-05 10:00”\n---\nText\n');
    expect(date.positions).toEqual([[3, 14, 'error', 'curly-quotes']]);
    expect(date.diagnostics[0]!.message).toBe('`scheduledAt` is in curly quotes (“ ”), so it is not a date and time');
    expect(date.diagnostics[0]!.hint).toBe('Write straight quotes ("2026-12-05 10:00") or none: 2026-12-05 10:00');
  });
});

