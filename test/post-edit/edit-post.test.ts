import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { editPost, type PostEdit } from '../../src/post-edit/index.js';

const FILE = [
  '---',
  '# The launch post: keep this comment',
  "id: 'launch'",
  'scheduledAt: "2027-02-03 09:00"   # launch day',
  'targets:',
  '  - photo',
  '  - account: video',
  '    options: { vidATitle: "Launch" }',
  'media: [media/cover.png]',
  '---',
  'Launch day',
  '',
  'Second paragraph {{ product }}',
  '',
].join('\n');

describe('editPost: one change, every other byte kept', () => {
  it('rewrites scheduledAt in its own quotes, keeping its comment', () => {
    expect(editPost(FILE, { kind: 'schedule', at: '2027-02-10 16:30' })).toBe(FILE.replace('"2027-02-03 09:00"', '"2027-02-10 16:30"'));
  });

  it('writes a new time in the form the file wrote its time in: T, seconds, the offset (the project\'s then) or Z', () => {
    const at = (written: string, edit: { at: string; offset?: string }, occurrence?: string) => {
      const file = occurrence === undefined ? `---\nscheduledAt: ${written} # Berlin, UTC+1 in winter\n---\nx\n` : `---\nscheduledAt: 2027-01-04 09:00\nrepeat: { every: week, count: 4 }\noccurrences: { ${occurrence}: { scheduledAt: ${written} } }\n---\nx\n`;
      const edited = editPost(file, { kind: 'schedule', ...edit, ...(occurrence === undefined ? {} : { occurrence }) });
      return /scheduledAt: (.+?)(?: # Berlin| })/.exec(edited.slice(occurrence === undefined ? 0 : edited.indexOf('occurrences')))?.[1];
    };
    expect(at('2027-01-22T19:00:00+01:00', { at: '2027-01-23 19:00', offset: '+01:00' })).toBe('2027-01-23T19:00:00+01:00');
    // Across the change to summer time, the offset is the project's at the new time.
    expect(at('2027-03-22T19:00:00+01:00', { at: '2027-04-02 19:00', offset: '+02:00' })).toBe('2027-04-02T19:00:00+02:00');
    expect(at('2027-01-22T19:00+0100', { at: '2027-01-23 08:30', offset: '+01:00' })).toBe('2027-01-23T08:30+0100');
    expect(at('2027-01-22T18:00:00.000Z', { at: '2027-01-23 00:30', offset: '+01:00' })).toBe('2027-01-22T23:30:00.000Z');
    expect(at('2027-01-22 19:00:00', { at: '2027-01-23 19:05', offset: '+01:00' })).toBe('2027-01-23 19:05:00');
    expect(at('2027-01-22T19:00', { at: '2027-01-23 19:05' })).toBe('2027-01-23T19:05');
    // No offset to write: the wall time as it is, which reads the same on the project's clock.
    expect(at('2027-01-22T19:00:00+01:00', { at: '2027-01-23 19:00' })).toBe('2027-01-23 19:00');
    expect(at('"2027-01-22T19:00:00+01:00"', { at: '2027-01-23 19:00', offset: '+01:00' }, '2027-01-11')).toBe('"2027-01-23T19:00:00+01:00"');
  });

  it('adds scheduledAt to a draft at the end of the front-matter', () => {
    const draft = '---\ntargets: [photo] # one\n---\nHello\n';
    expect(editPost(draft, { kind: 'schedule', at: '2027-02-10 16:30' })).toBe('---\ntargets: [photo] # one\nscheduledAt: 2027-02-10 16:30\n---\nHello\n');
  });

  it('unschedules by removing the scheduledAt line and nothing else', () => {
    expect(editPost(FILE, { kind: 'unschedule' })).toBe(FILE.replace('scheduledAt: "2027-02-03 09:00"   # launch day\n', ''));
  });

  it('replaces the body text, keeping the blank lines around it', () => {
    expect(editPost(FILE, { kind: 'text', text: 'New words\n\nwith {{ product }}' })).toBe(FILE.replace('Launch day\n\nSecond paragraph {{ product }}', 'New words\n\nwith {{ product }}'));
  });

  it('keeps CRLF line endings, in the body and in an inserted line', () => {
    const crlf = '---\r\ntargets:\r\n  - photo\r\n---\r\nOne\r\nTwo\r\n';
    expect(editPost(crlf, { kind: 'text', text: 'Uno\nDos\nTres' })).toBe('---\r\ntargets:\r\n  - photo\r\n---\r\nUno\r\nDos\r\nTres\r\n');
    expect(editPost(crlf, { kind: 'schedule', at: '2027-03-01 08:00' })).toBe('---\r\ntargets:\r\n  - photo\r\nscheduledAt: 2027-03-01 08:00\r\n---\r\nOne\r\nTwo\r\n');
    expect(editPost(crlf, { kind: 'accounts', accounts: ['photo', 'short'] })).toBe('---\r\ntargets:\r\n  - photo\r\n  - short\r\n---\r\nOne\r\nTwo\r\n');
  });

  it('adds and removes accounts in a block list, keeping the other entries as written', () => {
    expect(editPost(FILE, { kind: 'accounts', accounts: ['photo', 'video', 'short'] })).toBe(FILE.replace('    options: { vidATitle: "Launch" }\n', '    options: { vidATitle: "Launch" }\n  - short\n'));
    expect(editPost(FILE, { kind: 'accounts', accounts: ['video'] })).toBe(FILE.replace('  - photo\n', ''));
  });

  it('adds and removes accounts in a flow list', () => {
    const flow = '---\ntargets: [photo, video]  # both\n---\nHi\n';
    expect(editPost(flow, { kind: 'accounts', accounts: ['video', 'short'] })).toBe('---\ntargets: [video, short]  # both\n---\nHi\n');
  });

  it('sets an account option where it is, and turns a bare account into an entry with options', () => {
    expect(editPost(FILE, { kind: 'option', account: 'video', name: 'vidATitle', value: 'Launch!' })).toBe(FILE.replace('{ vidATitle: "Launch" }', '{ vidATitle: "Launch!" }'));
    expect(editPost(FILE, { kind: 'option', account: 'video', name: 'vidATags', value: 'news' })).toBe(FILE.replace('{ vidATitle: "Launch" }', '{ vidATitle: "Launch", vidATags: news }'));
    expect(editPost(FILE, { kind: 'option', account: 'photo', name: 'format', value: 'square' })).toBe(FILE.replace('  - photo\n', '  - { account: photo, options: { format: square } }\n'));
  });

  it('edits one occurrence of a repeat under occurrences:', () => {
    const repeat = '---\nscheduledAt: 2027-01-04 09:00\nrepeat: { every: week, count: 4 }\ntargets: [photo]\n---\nWeekly\n';
    const moved = editPost(repeat, { kind: 'schedule', at: '2027-01-13 10:00', occurrence: '2027-01-11' });
    expect(moved).toBe(repeat.replace('---\nWeekly', 'occurrences: { 2027-01-11: { scheduledAt: 2027-01-13 10:00 } }\n---\nWeekly'));
    expect(editPost(moved, { kind: 'text', text: 'Special', occurrence: '2027-01-11' })).toBe(repeat.replace('---\nWeekly', 'occurrences: { 2027-01-11: { scheduledAt: 2027-01-13 10:00, content: Special } }\n---\nWeekly'));
    expect(editPost(moved, { kind: 'unschedule', occurrence: '2027-01-18' })).toBe(repeat.replace('---\nWeekly', 'occurrences: { 2027-01-11: { scheduledAt: 2027-01-13 10:00 }, 2027-01-18: { draft: true } }\n---\nWeekly'));
    const block = '---\nrepeat: { every: week, count: 4 }\noccurrences:\n  2027-01-11:\n    content: "Other" # kept\n---\nWeekly\n';
    expect(editPost(block, { kind: 'schedule', at: '2027-01-12 09:00', occurrence: '2027-01-11' })).toBe(block.replace('# kept\n', '# kept\n    scheduledAt: 2027-01-12 09:00\n'));
  });

  it('schedules a draft: its `draft: true` goes, the time is added', () => {
    expect(editPost('---\ndraft: true\ntargets: []\n---\nNew\n', { kind: 'schedule', at: '2027-03-01 09:00' })).toBe('---\ntargets: []\nscheduledAt: 2027-03-01 09:00\n---\nNew\n');
  });

  it('pins a next-slot post to the time it was dropped on', () => {
    expect(editPost('---\nscheduledAt: next-slot\ntargets: [photo]\n---\nx\n', { kind: 'schedule', at: '2027-03-01 09:00' })).toBe('---\nscheduledAt: 2027-03-01 09:00\ntargets: [photo]\n---\nx\n');
  });

  it('adds an account to a post with an empty list, and empties a block list to []', () => {
    expect(editPost('---\ndraft: true\ntargets: []\n---\nNew\n', { kind: 'accounts', accounts: ['photo'] })).toBe('---\ndraft: true\ntargets: [photo]\n---\nNew\n');
    expect(editPost('---\ntargets:\n  - photo\nid: x\n---\nNew\n', { kind: 'accounts', accounts: [] })).toBe('---\ntargets: []\nid: x\n---\nNew\n');
    expect(editPost('---\nid: x\n---\nNew\n', { kind: 'accounts', accounts: ['photo'] })).toBe('---\nid: x\ntargets: [photo]\n---\nNew\n');
  });

  it('keeps a byte order mark first, and gives a file without front-matter one after it', () => {
    expect(editPost('\uFEFF---\ntargets: [photo]\n---\nHi\n', { kind: 'schedule', at: '2027-03-01 09:00' })).toBe('\uFEFF---\ntargets: [photo]\nscheduledAt: 2027-03-01 09:00\n---\nHi\n');
    expect(editPost('\uFEFFJust text\n', { kind: 'schedule', at: '2027-03-01 09:00' })).toBe('\uFEFF---\nscheduledAt: 2027-03-01 09:00\n---\nJust text\n');
    expect(editPost('Just text\r\n', { kind: 'text', text: 'Other' })).toBe('Other\r\n');
  });

  it('quotes a value that would not read back as the same text', () => {
    expect(editPost('---\ntargets: [photo]\n---\nx\n', { kind: 'option', account: 'photo', name: 'link', value: 'a: b # c' })).toBe('---\ntargets: [{ account: photo, options: { link: "a: b # c" } }]\n---\nx\n');
  });

  it('refuses a file whose front-matter does not parse, naming what to do', () => {
    expect(() => editPost('---\ntargets: [photo\n---\nx\n', { kind: 'schedule', at: '2027-01-01 09:00' })).toThrow(expect.objectContaining({ message: expect.stringMatching(/^the front-matter of this file does not parse/), hint: expect.stringMatching(/in an editor/) }));
  });

  it('property: any other byte of the file is unchanged by a schedule edit', () => {
    const line = fc.stringMatching(/^[a-z]{1,8}$/);
    const comment = fc.stringMatching(/^[ a-zA-Z0-9#:'"]{0,20}$/);
    fc.assert(
      fc.property(fc.array(fc.tuple(line, comment), { maxLength: 5 }), fc.constantFrom('\n', '\r\n'), fc.string({ maxLength: 40 }), fc.constantFrom('"2027-02-03 09:00"', "'2027-02-03 09:00'", '2027-02-03 09:00'), (pairs, eol, body, quoted) => {
        const keys = [...new Set(pairs.map(([key]) => key))].filter((key) => key !== 'scheduledat');
        const head = keys.map((key, index) => `${key}: v${index} #${pairs[index]![1]}`);
        const at = `scheduledAt: ${quoted}`;
        const text = ['---', ...head.slice(0, 2), at, ...head.slice(2), '---', body.replace(/\r?\n/g, eol)].join(eol);
        const edited = editPost(text, { kind: 'schedule', at: '2027-12-24 18:05' });
        const expected = text.replace(at, `scheduledAt: ${quoted.replace('2027-02-03 09:00', '2027-12-24 18:05')}`);
        expect(edited).toBe(expected);
      }),
    );
  });

  it('property: a body edit changes only the body, with the file line endings', () => {
    fc.assert(
      fc.property(fc.constantFrom('\n', '\r\n'), fc.array(fc.stringMatching(/^[^\r\n]{0,12}$/), { minLength: 1, maxLength: 4 }), (eol, lines) => {
        const text = ['---', '# note', 'targets: [photo]', '---', 'Old', ''].join(eol);
        const edit: PostEdit = { kind: 'text', text: lines.join('\n').trim() };
        const edited = editPost(text, edit);
        const newBody = lines.join('\n').trim().split('\n').join(eol);
        expect(edited).toBe(['---', '# note', 'targets: [photo]', '---', newBody, ''].join(eol));
      }),
    );
  });
});
