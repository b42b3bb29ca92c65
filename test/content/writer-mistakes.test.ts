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
});
