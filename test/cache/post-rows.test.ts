import { describe, expect, it } from 'vitest';
import type { PostEntry } from '../../src/cache/post-memo.js';
import { postRowsCodec } from '../../src/cache/post-rows.js';
import type { MemoReading } from '../../src/content/reading-memo.js';
import type { DesiredMedia, DesiredPost, DesiredPostLocations, PostShape, TargetKeys, TargetShape } from '../../src/content/types.js';

const FILE = 'posts/every-field.md';
const at = (line: number) => ({ line, column: 3 });

/**
 * A post file's reading with every field of every part set. Typed `Required<…>`: a field added to a
 * post, its shape, its media or its reading does not compile here until it is set, so the round trip
 * below covers it.
 */
function everyField(): MemoReading {
  const target: Required<TargetShape> = { socialAccountId: 'acc-1', contentOverride: 'Own text', options: { vidATitle: 'Title' } };
  const media: Required<DesiredMedia> = { path: 'media/a.png', absolutePath: '/p/media/a.png', sha256: 'a'.repeat(64), sizeBytes: 9, contentType: 'image/png', kind: 'image', ref: 'media/a.png', alt: 'A cup' };
  const shape: Required<PostShape> = { content: 'Hello', scheduledAt: '2027-01-04T08:00:00.000Z', targets: [target], media: [media.sha256] };
  const keys: Required<TargetKeys> = { content: at(4), options: at(5), option: { vidATitle: at(6) } };
  const locations: Required<DesiredPostLocations> = { targets: [at(3)], media: [null], body: at(9), schedule: at(2), targetKeys: [keys] };
  const post: Required<DesiredPost> = {
    key: 'every@2027-01-04',
    file: FILE,
    shape,
    shapeHash: 'b'.repeat(64),
    fingerprint: 'c'.repeat(64),
    media: [media],
    targetLabels: ['brand'],
    locations,
    occurrence: { of: 'every', date: '2027-01-04' },
    slot: { at: at(2), taken: { slot: 'Mon 09:00', wall: '2027-01-04 09:00 (Europe/Berlin)', source: 'assigned' } },
    pencilledAt: '2027-01-05T08:00:00.000Z',
    origins: { digests: { file: 'e'.repeat(16), 'snippet:snippets/sig.md': 'f'.repeat(16) }, fields: { content: ['file', 'snippet:snippets/sig.md'] } },
  };
  const reading: Required<MemoReading> = {
    post,
    keyPosition: at(1),
    diagnostics: [{ severity: 'warning', code: 'rule-image-alt', message: 'm', file: FILE, line: 7, column: 5 }],
    schedule: { instant: shape.scheduledAt!, raw: '2027-01-04 09:00', position: at(2) },
    media: ['media/a.png'],
    snippets: [{ path: 'snippets/sig.md', digest: 'd'.repeat(64) }],
  };
  return reading;
}

describe('posts.json rows', () => {
  it('keeps a post with every field set as a row (not whole) and loads it back equal, its post key for key in order', () => {
    const entry: PostEntry = { stamp: { size: 1, mtimeMs: 2, ctimeMs: 3, ino: 4 }, reading: everyField() };
    const raw = JSON.parse(JSON.stringify(postRowsCodec.encode(new Map([[FILE, structuredClone(entry)]])))) as { rows: unknown[][] };
    // A post row holds the file, four stamp numbers and six parts of the reading; a whole row six in all.
    expect(raw.rows[0]).toHaveLength(12);
    const loaded = postRowsCodec.decode(raw)?.get(FILE);
    expect(loaded).toStrictEqual(entry);
    // The post key for key in the same order: what is written from a post (JSON, pages) is the same text.
    expect(JSON.stringify(loaded?.reading.post)).toBe(JSON.stringify(entry.reading.post));
  });
});
