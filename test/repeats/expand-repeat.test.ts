import { describe, expect, it } from 'vitest';
import { parseScheduledAt } from '../../src/zoned-time/scheduled-at.js';
import { parseYamlSource } from '../../src/text/yaml-source.js';
import { expandRepeat, hasRepeat } from '../../src/repeats/index.js';

const ZONE = 'Europe/Berlin';

/** Expands a front-matter written as YAML (line 1 is the file's line 2, after `---`). */
function expand(yaml: string, options: { body?: string; key?: string } = {}) {
  const source = parseYamlSource(yaml, 'posts/weekly.md');
  const frontMatter = source.value as Record<string, unknown>;
  const written = typeof frontMatter.scheduledAt === 'string' ? parseScheduledAt(frontMatter.scheduledAt, ZONE) : undefined;
  return expandRepeat({
    key: options.key ?? 'weekly',
    file: 'posts/weekly.md',
    frontMatter,
    locate: (path, opts) => {
      const at = source.locate(path, opts);
      return at === undefined ? undefined : { line: at.line + 1, column: at.column };
    },
    scheduledAt: written?.ok === true ? written.instant : null,
    draft: frontMatter.draft === true,
    body: options.body ?? 'The body',
    timezone: ZONE,
  });
}

const keys = (yaml: string) => expand(yaml).occurrences.map((o) => o.key);

describe('expandRepeat', () => {
  it('expands every N weeks with a count into keyed occurrences at the same wall time across DST', () => {
    const result = expand('scheduledAt: 2027-03-15 09:00\nrepeat: { every: 2 weeks, count: 3 }\n');
    expect(result.diagnostics).toEqual([]);
    expect(result.occurrences).toEqual([
      { key: 'weekly@2027-03-15', date: '2027-03-15', index: 0, scheduledAt: '2027-03-15T08:00:00.000Z', text: 'The body', textPath: null, draft: false, shifted: false },
      { key: 'weekly@2027-03-29', date: '2027-03-29', index: 1, scheduledAt: '2027-03-29T07:00:00.000Z', text: 'The body', textPath: null, draft: false, shifted: false },
      { key: 'weekly@2027-04-12', date: '2027-04-12', index: 2, scheduledAt: '2027-04-12T07:00:00.000Z', text: 'The body', textPath: null, draft: false, shifted: false },
    ]);
  });

  it('knows days, weekdays, month days (the last day for a short month) and `until` (included)', () => {
    expect(keys('scheduledAt: 2027-01-30 09:00\nrepeat: { every: 3 days, until: 2027-02-05 }\n')).toEqual(['weekly@2027-01-30', 'weekly@2027-02-02', 'weekly@2027-02-05']);
    expect(keys('scheduledAt: 2027-01-06 09:00\nrepeat: { every: week, on: [Mon, Thu], count: 4 }\n')).toEqual(['weekly@2027-01-07', 'weekly@2027-01-11', 'weekly@2027-01-14', 'weekly@2027-01-18']);
    expect(keys('scheduledAt: 2027-01-06 09:00\nrepeat: { every: "2 weeks on Mon, Thu", count: 3 }\n')).toEqual(['weekly@2027-01-07', 'weekly@2027-01-18', 'weekly@2027-01-21']);
    expect(keys('scheduledAt: 2027-01-01 09:00\nrepeat: { every: month on day 1, until: "2027-03-01 09:00" }\n')).toEqual(['weekly@2027-01-01', 'weekly@2027-02-01', 'weekly@2027-03-01']);
    expect(keys('scheduledAt: 2027-01-31 09:00\nrepeat: { every: month, count: 3 }\n')).toEqual(['weekly@2027-01-31', 'weekly@2027-02-28', 'weekly@2027-03-31']);
    expect(keys('scheduledAt: 2027-01-15 09:00\nrepeat: { every: 2 months, on: [15, 30, 31], count: 4 }\n')).toEqual(['weekly@2027-01-15', 'weekly@2027-01-30', 'weekly@2027-01-31', 'weekly@2027-03-15']);
    expect(keys('scheduledAt: 2027-01-15 09:00\nrepeat: { every: month, on: [30, 31], count: 3 }\n')).toEqual(['weekly@2027-01-30', 'weekly@2027-01-31', 'weekly@2027-02-28']);
  });

  it('skips dates without counting them, and uses the variants in turn by place in the series', () => {
    const result = expand('scheduledAt: 2027-02-07 09:00\nrepeat: { every: week, count: 3, skip: [2027-02-14] }\nvariants: ["Second text", "Third text"]\n');
    expect(result.occurrences.map((o) => [o.date, o.index, o.text, o.textPath])).toEqual([
      ['2027-02-07', 0, 'The body', null],
      ['2027-02-21', 2, 'Third text', ['variants', 1]],
      ['2027-02-28', 3, 'The body', null],
    ]);
  });

  it('changes one occurrence from the same file: its text, its time of day or its date, or makes it a draft', () => {
    const yaml = [
      'scheduledAt: 2027-01-04 09:00',
      'repeat: { every: week, count: 3 }',
      'occurrences:',
      '  2027-01-11: { content: "  Special edition  ", scheduledAt: "11:30" }',
      '  2027-01-18: { scheduledAt: "2027-01-19 08:00", draft: true }',
      '',
    ].join('\n');
    expect(expand(yaml).occurrences.map((o) => [o.key, o.scheduledAt, o.text, o.textPath, o.draft, o.overrideAt])).toEqual([
      ['weekly@2027-01-04', '2027-01-04T08:00:00.000Z', 'The body', null, false, undefined],
      ['weekly@2027-01-11', '2027-01-11T10:30:00.000Z', 'Special edition', ['occurrences', '2027-01-11', 'content'], false, { line: 5, column: 3 }],
      ['weekly@2027-01-18', '2027-01-19T07:00:00.000Z', 'The body', null, true, { line: 6, column: 3 }],
    ]);
  });

  it('moves a time that does not exist that day forward by the DST gap, and says so', () => {
    const result = expand('scheduledAt: 2027-03-21 02:30\nrepeat: { every: week, count: 3 }\n');
    expect(result.occurrences.map((o) => [o.scheduledAt, o.shifted])).toEqual([
      ['2027-03-21T01:30:00.000Z', false],
      ['2027-03-28T01:30:00.000Z', true],
      ['2027-04-04T00:30:00.000Z', false],
    ]);
  });

  it('reports every problem with its position, found value and hint', () => {
    const yaml = [
      'scheduledAt: 2027-01-04 09:00', // line 2
      'repeat:',
      '  every: 2 fortnights', // line 4
      '  on: [Mon, Thu]',
      '  skip: [2027-02-30]',
      'occurrences:',
      '  not-a-date: { draft: true }',
      '',
    ].join('\n');
    expect(expand(yaml).diagnostics.map((d) => [d.line, d.column, d.code, d.hint])).toEqual([
      [4, 10, 'invalid-repeat', 'Write how often, such as `every: 2 weeks`.'],
      [4, 3, 'invalid-repeat', 'Say when the repeat ends, e.g. `count: 6`.'],
      [6, 10, 'invalid-date', 'Write the date as YYYY-MM-DD.'],
      [8, 3, 'invalid-date', 'Write the date as YYYY-MM-DD, as in the occurrence key `…@2027-01-18`.'],
    ]);
    expect(expand('scheduledAt: 2027-01-04 09:00\nrepeat: { every: day, on: Mon, count: 2 }\n').diagnostics).toMatchObject([{ code: 'invalid-repeat', message: 'a daily repeat has no `on`' }]);
    expect(expand('scheduledAt: 2027-01-04 09:00\nrepeat: { every: week, on: [Mon, Fry], count: 2 }\n').diagnostics).toMatchObject([{ message: '`on` of a weekly repeat must list weekdays', found: '`Mon, Fry`' }]);
    expect(expand('scheduledAt: 2027-01-04 09:00\nrepeat: { every: week, count: 2, until: 2027-02-01 }\n').diagnostics).toMatchObject([{ message: '`repeat` has both `count` and `until`' }]);
    expect(expand('scheduledAt: 2027-01-04 09:00\nrepeat: { every: week, until: 2027-01-01 }\n').diagnostics).toMatchObject([{ code: 'repeat-empty', line: 3, found: '`until: 2027-01-01`' }]);
    expect(expand('scheduledAt: 2027-01-04 09:00\nrepeat: { every: day, until: 2029-01-01 }\n').diagnostics).toMatchObject([{ code: 'repeat-too-long' }]);
  });

  it('reports overrides and skips that name no occurrence, with the nearest date', () => {
    const yaml = 'scheduledAt: 2027-01-04 09:00\nrepeat: { every: week, count: 3, skip: [2027-01-11, 2027-01-12] }\noccurrences:\n  2027-01-11: { draft: true }\n  2027-01-19: { draft: true }\n';
    expect(expand(yaml).diagnostics.map((d) => [d.severity, d.code, d.message, d.hint])).toEqual([
      ['error', 'occurrence-skipped', 'occurrence 2027-01-11 is skipped in `repeat.skip`', 'Remove it from `repeat.skip`, or remove this entry.'],
      ['error', 'unknown-occurrence', '2027-01-19 is not a date of this repeat', 'did you mean 2027-01-18?'],
      ['warning', 'unused-skip', '2027-01-12 in `repeat.skip` is not a date of this repeat', 'did you mean 2027-01-11?'],
    ]);
  });

  it('needs a time, and keeps variants and occurrences for repeats', () => {
    expect(expand('scheduledAt: next-slot\nrepeat: { every: week, count: 2 }\n').diagnostics).toMatchObject([{ code: 'repeat-without-time', line: 3, found: '`scheduledAt: next-slot`' }]);
    expect(expand('variants: [a]\n').diagnostics).toMatchObject([{ code: 'repeat-missing', message: '`variants` is used only with `repeat`', line: 2 }]);
    expect([hasRepeat({ repeat: {} }), hasRepeat({ occurrences: {} }), hasRepeat({ scheduledAt: 'x' })]).toEqual([true, true, false]);
    // A draft repeat still has dates: its occurrences are drafts.
    expect(expand('scheduledAt: 2027-01-04 09:00\ndraft: true\nrepeat: { every: week, count: 2 }\n').occurrences.map((o) => o.draft)).toEqual([true, true]);
  });
});
