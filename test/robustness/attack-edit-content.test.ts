import { describe, expect, it } from 'vitest';
import { parsePostFile } from '../../src/content/parse.js';
import { editPost, type PostEdit } from '../../src/post-edit/index.js';

/** The front-matter and body a post parser reads from `text`, or the first error it reports. */
function read(text: string): { front: unknown; body: string } | string {
  const parsed = parsePostFile('posts/x.md', Buffer.from(text));
  const error = parsed.diagnostics.find((diagnostic) => diagnostic.severity === 'error');
  return error === undefined ? { front: parsed.frontMatter, body: parsed.body.trim() } : error.message;
}

/** The file after `edit`, or the refusal (an InputError's message): a refusal writes nothing, which is fine. */
function edited(text: string, edit: PostEdit): string | { refused: string } {
  try {
    return editPost(text, edit);
  } catch (error) {
    return { refused: (error as Error).message };
  }
}

const HOSTILE_VALUES = [
  'x\ntargets: [evil]',
  'x\n---\nscheduledAt: 2027-01-01 00:00',
  'a: b',
  'a #b',
  '# comment',
  `'q" \\ end`,
  '- item',
  '? key',
  '&anchor x',
  '*alias',
  '!!int 5',
  '[a, b]',
  '{a: b}',
  'a:b',
  'https://example.com/a?b=c#d',
  '@handle',
  '`tick`',
  '%TAG',
  '|',
  '>',
  ' leading',
  'trailing ',
  'tab\there',
  'del\u007fhere',
  'c1\u0085nel\u0080',
  'bom\ufeffin',
  'ls\u2028ps\u2029',
  'nul\u0000byte',
  'cr\rhere',
  'yes',
  'null',
  '~',
  '0x10',
  '1e3',
  '.inf',
  '',
];

describe('attack: an edit whose value is YAML or front-matter syntax', () => {
  const FILE = '---\n# keep\nscheduledAt: "2027-02-03 09:00"\ntargets:\n  - { account: photo, options: { link: "https://a.example" } }\n  - account: video\n    options:\n      vidATitle: Launch\noccurrences: {}\n---\nBody\n';

  it.each(HOSTILE_VALUES)('writes the option value %j as exactly that string, in a flow map and in a block map, adding no key', (value) => {
    for (const account of ['photo', 'video']) {
      const name = account === 'photo' ? 'link' : 'vidATitle';
      const text = edited(FILE, { kind: 'option', account, name, value });
      if (typeof text !== 'string') continue;
      const back = read(text);
      expect(back, `${account}: ${text}`).not.toBeTypeOf('string');
      const front = (back as { front: { targets: { options: Record<string, unknown> }[]; scheduledAt: string } }).front;
      const entry = front.targets[account === 'photo' ? 0 : 1]!;
      expect([account, entry.options[name]]).toEqual([account, value]);
      expect(Object.keys(front)).toEqual(['scheduledAt', 'targets', 'occurrences']);
      expect(front.targets).toHaveLength(2);
    }
  });

  it.each(HOSTILE_VALUES)('writes the text %j of an occurrence as exactly that text', (value) => {
    const text = edited(FILE, { kind: 'text', text: value, occurrence: '2027-02-08' });
    if (typeof text !== 'string') return;
    const back = read(text);
    expect(back, text).not.toBeTypeOf('string');
    const front = (back as { front: { occurrences: Record<string, { content: unknown }> } }).front;
    expect(front.occurrences).toEqual({ '2027-02-08': { content: value } });
    expect((back as { body: string }).body).toBe('Body');
  });

  it.each(HOSTILE_VALUES.filter((value) => value.trim() !== ''))('writes the account %j as one account of targets:', (value) => {
    for (const file of [FILE, FILE.replace(/targets:[\s\S]*?occurrences/, 'targets: [photo]\noccurrences')]) {
      const text = edited(file, { kind: 'accounts', accounts: ['photo', value] });
      if (typeof text !== 'string') continue;
      const back = read(text);
      expect(back, text).not.toBeTypeOf('string');
      const front = (back as { front: { targets: unknown[] } }).front;
      expect(front.targets.at(-1)).toEqual(value);
      expect(front.targets).toHaveLength(2);
    }
  });
});

describe('attack: a crafted post file the editor writes into', () => {
  const ask = (file: string, edit: PostEdit) => ({ file, edit });
  it.each([
    ['a front-matter closed at the end of the file, without a line break, and a text', ask('---\ntargets: [photo]\n---', { kind: 'text', text: 'Hello' }), { front: { targets: ['photo'] }, body: 'Hello' }],
    ['a file without front-matter and a text that opens one', ask('Just text\n', { kind: 'text', text: '---\nscheduledAt: 2027-01-01 00:00\ntargets: [evil]\n---\nHi' }), { front: {}, body: '---\nscheduledAt: 2027-01-01 00:00\ntargets: [evil]\n---\nHi' }],
    ['a root flow map and unschedule', ask('---\n{ scheduledAt: "2027-02-03 09:00", targets: [photo] }\n---\nBody\n', { kind: 'unschedule' }), { refused: 'one flow mapping' }],
    ['an empty root flow map and a time', ask('---\n{}\n---\nBody\n', { kind: 'schedule', at: '2027-02-05 09:00' }), { refused: 'one flow mapping' }],
    ['a first line `---yaml` and a text', ask('---yaml\ntargets: [photo]\n---\nBody\n', { kind: 'text', text: 'New' }), { refused: 'is not just `---`' }],
    ['a first line `---yaml` and a time', ask('---yaml\ntargets: [photo]\n---\nBody\n', { kind: 'schedule', at: '2027-02-05 09:00' }), { refused: 'is not just `---`' }],
    ['a block scalar value of an option replaced', ask('---\ntargets:\n  - account: video\n    options:\n      vidATitle: |\n        Two\n        lines\nid: keep\n---\nBody\n', { kind: 'option', account: 'video', name: 'vidATitle', value: 'One' }), { front: { targets: [{ account: 'video', options: { vidATitle: 'One' } }], id: 'keep' }, body: 'Body' }],
    ['a time written as null (`~`)', ask('---\nscheduledAt: ~\ntargets: [photo]\n---\nBody\n', { kind: 'schedule', at: '2027-02-05 09:00' }), { front: { scheduledAt: '2027-02-05 09:00', targets: ['photo'] }, body: 'Body' }],
    ['a time written as `null`', ask('---\nscheduledAt: null\ntargets: [photo]\n---\nBody\n', { kind: 'schedule', at: '2027-02-05 09:00' }), { front: { scheduledAt: '2027-02-05 09:00', targets: ['photo'] }, body: 'Body' }],
    ['a time left empty with a comment after it', ask('---\nscheduledAt: # later\ntargets: [photo]\n---\nBody\n', { kind: 'schedule', at: '2027-02-05 09:00' }), { front: { scheduledAt: '2027-02-05 09:00', targets: ['photo'] }, body: 'Body' }],
    ['occurrences written as null and one occurrence moved', ask('---\nscheduledAt: 2027-02-01 10:00\nrepeat: { every: week, count: 3 }\noccurrences: null\n---\nBody\n', { kind: 'schedule', at: '2027-02-09 10:00', occurrence: '2027-02-08' }), { front: { scheduledAt: '2027-02-01 10:00', repeat: { every: 'week', count: 3 }, occurrences: { '2027-02-08': { scheduledAt: '2027-02-09 10:00' } } }, body: 'Body' }],
    ['an anchored time another field aliases, and unschedule', ask('---\nscheduledAt: &t "2027-02-03 09:00"\nid: *t\ntargets: [photo]\n---\nBody\n', { kind: 'unschedule' }), { refused: 'alias' }],
    ['an entry of targets: on the line after its dash, and an account added', ask('---\ntargets:\n  -\n    photo\n---\nBody\n', { kind: 'accounts', accounts: ['photo', 'video'] }), { front: { targets: ['photo', 'video'] }, body: 'Body' }],
    ['a line `---x` that the post parser reads as the closing line', ask('---\ntargets: [photo]\n---x\nid: hidden\n---\nBody\n', { kind: 'schedule', at: '2027-02-05 09:00' }), { refused: 'ends at a line "---x"' }],
  ] as const)('%s: the file reads back with exactly the edit, or is refused', (_, { file, edit }, expected) => {
    const text = edited(file, edit);
    if ('refused' in expected) return void expect(text).toEqual({ refused: expect.stringContaining(expected.refused) });
    expect(typeof text, JSON.stringify(text)).toBe('string');
    expect(read(text as string), text as string).toEqual(expected);
    // What an edit wrote, the next edit can change too (its closing line is still just `---`).
    expect(typeof edited(text as string, { kind: 'unschedule' }), text as string).toBe('string');
  });
});
