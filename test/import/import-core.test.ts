import { describe, expect, it } from 'vitest';
import type { Post } from '../../src/api/types.js';
import { importKey, importPath, renderPostFile } from '../../src/import/post-file.js';
import { selectForImport } from '../../src/import/select.js';
import { slugOfText } from '../../src/import/slug.js';
import { formatInZone, monthInZone } from '../../src/import/zoned-time.js';
import { emptyProjectState } from '../../src/state/state-file.js';
import { csvField, renderCsv } from '../../cli/views/csv.js';
import { rangeBound } from '../../src/reports/read-analytics.js';

const PHOTO = '6f1c2d6e-0a55-4c59-9d0f-3b8f5d1a7e01';
const VIDEO = '7a2d3e4f-1b66-4d6a-8e1f-4c9a6e2b8f02';

function post(overrides: Partial<Post> = {}): Post {
  return {
    id: 'abcdef12-3456-4789-8abc-def012345678',
    status: 'draft',
    content: 'Hello',
    scheduledAt: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    targets: [],
    media: [],
    ...overrides,
  };
}

describe('import file names', () => {
  it('slugs the first words, folding accents and dropping punctuation', () => {
    expect(slugOfText('Ünïcode café: the FIRST words of a long text go here')).toBe('unicode-cafe-the-first-words-of');
    expect(slugOfText('🚀🚀')).toBe('post');
    expect(slugOfText('')).toBe('post');
    expect(slugOfText('x'.repeat(80))).toHaveLength(48);
  });

  it('puts a post in the month of its schedule in the project time zone, or under drafts', () => {
    const scheduled = post({ scheduledAt: '2026-11-30T23:30:00Z' });
    expect(importKey(scheduled)).toBe('hello-abcdef12');
    expect(importPath(scheduled, 'k', { timezone: 'UTC' })).toBe('imported/2026-11/k.md');
    expect(importPath(scheduled, 'k', { timezone: 'Europe/Berlin' })).toBe('imported/2026-12/k.md');
    expect(importPath(post(), 'k', { timezone: 'UTC' })).toBe('imported/drafts/k.md');
    expect(importPath(post({ status: 'published', publishedAt: '2025-03-04T05:06:07Z' }), 'k', { timezone: 'UTC' })).toBe('imported/2025-03/k.md');
  });

  it('writes instants with the offset of the zone at that instant', () => {
    expect(formatInZone('2026-07-01T07:00:00.000Z', 'Europe/Berlin')).toBe('2026-07-01T09:00:00+02:00');
    expect(formatInZone('2026-12-01T08:00:00.000Z', 'Europe/Berlin')).toBe('2026-12-01T09:00:00+01:00');
    expect(formatInZone('2026-12-01T08:00:00.250Z', 'America/St_Johns')).toBe('2026-12-01T04:30:00.250-03:30');
    expect(monthInZone('2026-12-31T23:30:00Z', 'Asia/Tokyo')).toBe('2027-01');
  });
});

describe('renderPostFile', () => {
  it('writes id, schedule, targets (alias where known, else the uuid) with override and input options only, media, then the text', () => {
    const text = renderPostFile({
      key: 'launch-abcdef12',
      post: post({
        content: 'The text\n\nwith paragraphs',
        scheduledAt: '2026-12-01T08:00:00.000Z',
        targets: [
          { socialAccountId: PHOTO, platform: 'photoC', handle: '@p', status: 'pending', options: {} },
          { socialAccountId: VIDEO, platform: 'vidA', handle: '@v', status: 'pending', contentOverride: 'Video: text', options: { vidATitle: 'Launch', vidAPrivacy: 'private', vidATags: ['a', 'b'] } },
        ],
      }),
      timezone: 'Europe/Berlin',
      aliasFor: (id) => (id === PHOTO ? 'brand-photo' : undefined),
      mediaPaths: ['media/teaser.mp4'],
    });
    expect(text).toBe(
      [
        '---',
        'id: launch-abcdef12',
        'scheduledAt: 2026-12-01T09:00:00+01:00',
        'targets:',
        '  - brand-photo',
        `  - account: ${VIDEO}`,
        '    content: "Video: text"',
        '    options:',
        '      vidATitle: Launch',
        '      vidATags:',
        '        - a',
        '        - b',
        'media:',
        '  - media/teaser.mp4',
        '---',
        'The text',
        '',
        'with paragraphs',
        '',
      ].join('\n'),
    );
  });

  it('leaves out what a draft without targets does not have', () => {
    expect(renderPostFile({ key: 'k', post: post({ content: '' }), timezone: 'UTC', aliasFor: () => undefined, mediaPaths: [] })).toBe('---\nid: k\n---\n\n');
  });

  it('writes braces so that templates give them back as they are', async () => {
    const { renderTemplate } = await import('../../src/templates/index.js');
    const content = 'Use {{ name }}, a\\{{ b }} and {{{';
    const text = renderPostFile({
      key: 'k',
      post: post({ content, targets: [{ socialAccountId: VIDEO, platform: 'vidA', handle: '@v', status: 'pending', contentOverride: '{{x}}', options: { vidATags: ['{{t}}'] } }] }),
      timezone: 'UTC',
      aliasFor: () => undefined,
      mediaPaths: [],
    });
    const body = text.slice(text.lastIndexOf('---\n') + 4, -1);
    expect(renderTemplate(body, { file: 'k.md', vars: {}, hashtags: {}, builtIns: {} })).toMatchObject({ text: content, diagnostics: [] });
    expect(text).toContain('content: \\{{x}}');
    expect(text).toContain('- \\{{t}}');
  });
});

describe('selectForImport', () => {
  const section = emptyProjectState({ apiUrl: 'local', projectId: 'demo' });
  section.posts.owned = { postId: 'owned-id', file: 'posts/owned.md', appliedHash: 'h', remoteUpdatedAt: 't', appliedAt: 't' };
  section.pending.later = { file: 'posts/later.md', idempotencyKey: 'k', payload: { content: 'Half done', targets: [{ socialAccountId: PHOTO }], mediaIds: [] }, shapeHash: 'h', startedAt: 't' };
  const posts = [
    post({ id: 'owned-id' }),
    post({ id: 'draft-id' }),
    post({ id: 'scheduled-id', status: 'scheduled' }),
    post({ id: 'published-id', status: 'published' }),
    post({ id: 'failed-id', status: 'failed' }),
    post({ id: 'pending-id', content: 'Half done', targets: [{ socialAccountId: PHOTO, platform: 'photoC', handle: '@p', status: 'pending', options: { vidAPrivacy: 'x' } }] }),
  ];
  const ids = (list: readonly Post[]) => list.map((item) => item.id);

  it('takes unowned drafts and scheduled posts by default, and sets apart the result of a pending create', () => {
    const selection = selectForImport(posts, section, {});
    expect(ids(selection.candidates)).toEqual(['draft-id', 'scheduled-id']);
    expect(ids(selection.filteredOut)).toEqual(['published-id', 'failed-id']);
    expect(selection.pending.map((item) => [item.post.id, item.key])).toEqual([['pending-id', 'later']]);
    expect(selection.managed).toBe(1);
  });

  it('takes every status with all, and exactly one with status', () => {
    expect(ids(selectForImport(posts, section, { all: true }).candidates)).toEqual(['draft-id', 'scheduled-id', 'published-id', 'failed-id']);
    expect(ids(selectForImport(posts, section, { status: 'published' }).candidates)).toEqual(['published-id']);
  });
});

describe('analytics output helpers', () => {
  it('quotes CSV fields per RFC 4180', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a, "b"')).toBe('"a, ""b"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField(null)).toBe('');
    expect(String(renderCsv(['a', 'b'], [[1, 'x,y']]))).toBe('a,b\r\n1,"x,y"\r\n');
  });

  it('reads --from and --to dates in the project time zone, --to including the whole day', () => {
    expect(rangeBound('--from', '2026-12-01', 'Europe/Berlin')).toBe('2026-11-30T23:00:00.000Z');
    expect(rangeBound('--to', '2026-12-31', 'Europe/Berlin')).toBe('2026-12-31T23:00:00.000Z');
    expect(rangeBound('--to', '2026-12-31T10:00:00Z', 'Europe/Berlin')).toBe('2026-12-31T10:00:00.000Z');
    expect(() => rangeBound('--from', '2026-02-30', 'UTC')).toThrow('is not a date or time');
  });
});
