import { describe, expect, it } from 'vitest';
import { mediaDeltas, mediaDeltasOf } from '../../src/plan/media-changes.js';
import { createPlan } from '../../src/plan/planner.js';
import { desired, desiredMedia, livePost, mediaState, planInput, record, shape, state, SHA_A, SHA_B } from '../helpers/fixtures.js';

const SHA_C = 'c'.repeat(64);
const file = (sha256: string, path?: string, sizeBytes?: number) => ({ sha256, ...(path === undefined ? {} : { path }), ...(sizeBytes === undefined ? {} : { sizeBytes }) });

describe('mediaDeltas: how a media list changed', () => {
  it('added: a file only the new list has', () => {
    expect(mediaDeltas([file(SHA_A)], [file(SHA_A, 'media/a.jpg'), file(SHA_B, 'media/b.jpg', 10)])).toEqual([{ kind: 'added', file: file(SHA_B, 'media/b.jpg', 10), position: 2 }]);
  });

  it('removed: bytes only the old list had', () => {
    expect(mediaDeltas([file(SHA_A, undefined, 5), file(SHA_B, undefined, 7)], [file(SHA_A, 'media/a.jpg')])).toEqual([{ kind: 'removed', file: file(SHA_B, undefined, 7), position: 2 }]);
  });

  it('replaced: new bytes at the same path, or at the same place when the old path is unknown', () => {
    expect(mediaDeltas([file(SHA_A, 'media/a.jpg', 5)], [file(SHA_B, 'media/a.jpg', 9)])).toEqual([{ kind: 'replaced', before: file(SHA_A, 'media/a.jpg', 5), after: file(SHA_B, 'media/a.jpg', 9), position: 1 }]);
    expect(mediaDeltas([file(SHA_A, undefined, 5), file(SHA_C)], [file(SHA_B, 'media/a.jpg', 9), file(SHA_C, 'media/c.jpg')])).toEqual([{ kind: 'replaced', before: file(SHA_A, undefined, 5), after: file(SHA_B, 'media/a.jpg', 9), position: 1 }]);
  });

  it('reordered: the same files in a new order, and nothing else', () => {
    expect(mediaDeltas([file(SHA_A), file(SHA_B)], [file(SHA_B, 'media/b.jpg'), file(SHA_A, 'media/a.jpg')])).toEqual([{ kind: 'reordered', files: [file(SHA_B, 'media/b.jpg'), file(SHA_A, 'media/a.jpg')] }]);
  });

  it('a path the old list had at another file is not a replacement of an unrelated place', () => {
    const deltas = mediaDeltas([file(SHA_A, 'media/a.jpg'), file(SHA_B, 'media/b.jpg')], [file(SHA_C, 'media/c.jpg'), file(SHA_B, 'media/b.jpg')]);
    expect(deltas.map((delta) => delta.kind)).toEqual(['added', 'removed']);
  });
});

describe('the plan names the media files of an update', () => {
  it('the new list by path and size from the files, the old by size from the state', () => {
    const applied = shape({ media: [SHA_A] });
    const edited = shape({ media: [SHA_B] });
    const owned = state({ posts: { launch: record('p1', applied, 'posts/launch.md') }, media: mediaState(SHA_A) });
    const post = desired('launch', edited, { media: [{ ...desiredMedia(SHA_B, 'media/latte.jpg'), sizeBytes: 2048 }] });
    const change = createPlan(planInput({ desired: [post], state: owned, live: [livePost('p1', applied)] })).changes[0]!;
    const media = change.fields!.find((field) => field.field === 'media')!;
    expect(media.files).toEqual({ before: [file(SHA_A, undefined, 1234)], after: [file(SHA_B, 'media/latte.jpg', 2048)] });
    expect(mediaDeltasOf(media)).toEqual([{ kind: 'replaced', before: file(SHA_A, undefined, 1234), after: file(SHA_B, 'media/latte.jpg', 2048), position: 1 }]);
  });
});
