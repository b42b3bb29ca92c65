import { describe, expect, it } from 'vitest';
import { checkFrontMatter } from '../../src/content/schema.js';
import { parseYamlSource } from '../../src/text/yaml-source.js';

function problems(yaml: string) {
  const source = parseYamlSource(yaml, 'posts/a.md');
  return checkFrontMatter(source.value, 'posts/a.md', source.locate)
    .sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0))
    .map((d) => `${d.line}:${d.column} ${d.code}${d.hint === undefined ? '' : ` — ${d.hint}`}`);
}

describe('post front-matter schema: next-slot, repeat, variants, occurrences', () => {
  it('accepts the documented forms', () => {
    expect(problems('scheduledAt: next-slot\ntargets: [brand-photo]\n')).toEqual([]);
    const repeated = [
      'scheduledAt: 2027-01-04 09:00',
      'repeat: { every: 2 weeks, on: [Mon, Thu], until: 2027-06-30, skip: [2027-02-15] }',
      'variants: ["Second text", "Third text"]',
      'occurrences:',
      '  2027-01-18: { scheduledAt: "11:00", content: "Special", draft: false }',
      '',
    ].join('\n');
    expect(problems(repeated)).toEqual([]);
    expect(problems('repeat: { every: month, on: 1, count: 6, skip: 2027-03-01 }\n')).toEqual([]);
  });

  it('reports misspelt fields with did-you-mean, and wrong types', () => {
    expect(problems('repeat: { evrey: week, count: 6 }\nvariant: [a]\noccurrences:\n  2027-01-18: { contnet: x }\n')).toEqual([
      '1:9 missing-field — Add `every:`.',
      '1:11 unknown-field — did you mean `every`?',
      '2:1 unknown-field — did you mean `variants`?',
      '4:17 unknown-field — did you mean `content`?',
    ]);
    expect(problems('repeat: { every: week, count: "six" }\nvariants: text\n')).toEqual(['1:31 wrong-type', '2:11 wrong-type — Write a list: one `- item` per line.']);
  });
});
