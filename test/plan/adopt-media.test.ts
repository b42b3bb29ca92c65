import { describe, expect, it } from 'vitest';
import { orphanMediaToLearn } from '../../src/plan/adopt-media.js';
import { livePostsById } from '../../src/plan/plan-context.js';
import { SHA_A, SHA_B, desired, livePost, mediaId, mediaState, shape, state } from '../helpers/fixtures.js';

// An orphan with one media the state knows (SHA_A) and one it does not (SHA_B's upload).
const both = shape({ media: [SHA_A, SHA_B] });
const live = livePostsById([livePost('p1', both)]);
const known = state({ media: mediaState(SHA_A) });

describe('orphanMediaToLearn: an orphan whose media the state knows only in part', () => {
  it('fetches only the media the state does not know, when the known ones match the new post', () => {
    const media = orphanMediaToLearn({ newPosts: [desired('launch', both)], state: known, live });
    expect(media.map((item) => item.id)).toEqual([mediaId(SHA_B)]);
  });

  it('fetches nothing when a known media differs from the new post\'s: it can never be that post', () => {
    expect(orphanMediaToLearn({ newPosts: [desired('launch', shape({ media: [SHA_B, SHA_B] }))], state: known, live })).toEqual([]);
  });

  it('counts each known media once: an orphan holding one known media twice is not a post that holds it once', () => {
    const twice = livePostsById([livePost('p1', shape({ media: [SHA_A, SHA_A, SHA_B] }))]);
    expect(orphanMediaToLearn({ newPosts: [desired('launch', shape({ media: [SHA_A, SHA_B, 'c'.repeat(64)] }))], state: known, live: twice })).toEqual([]);
    expect(orphanMediaToLearn({ newPosts: [desired('launch', shape({ media: [SHA_A, SHA_A, 'c'.repeat(64)] }))], state: known, live: twice }).map((item) => item.id)).toEqual([mediaId(SHA_B)]);
  });

  it('fetches when any one of the new posts like it could be the orphan', () => {
    const newPosts = [desired('a', both), desired('b', shape({ media: [SHA_B, SHA_B] }))];
    expect(orphanMediaToLearn({ newPosts, state: known, live }).map((item) => item.id)).toEqual([mediaId(SHA_B)]);
  });

  it('fetches a media whose kind is a word postsync does not know (a video the service calls a clip)', () => {
    const clip = livePostsById([livePost('p1', both, { media: [SHA_A, SHA_B].map((sha) => ({ id: mediaId(sha), kind: 'clip', url: 'u', sourceAvailable: true, contentType: 'video/mp4' })) })]);
    expect(orphanMediaToLearn({ newPosts: [desired('launch', both)], state: known, live: clip }).map((item) => item.id)).toEqual([mediaId(SHA_B)]);
  });
});
