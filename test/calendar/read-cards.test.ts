import { describe, expect, it } from 'vitest';
import { RunCache } from '../../src/cache/run-cache.js';
import type { PostContent } from '../../src/calendar/model.js';
import type { PostCard } from '../../src/calendar/post-card.js';
import { cardMemo } from '../../src/calendar/card-memo.js';
import { readCards, type CardStore } from '../../src/calendar/read-cards.js';
import type { DesiredPost, UnchangedPost } from '../../src/content/types.js';
import { testdir } from '../helpers/testdir.js';
import { capabilities, desired, PHOTO, shape } from './fixtures.js';

const posts = [desired('a', shape({ content: 'Alpha', scheduledAt: '2027-01-05T08:00:00.000Z' })), desired('b', shape({ content: 'Beta, a little longer' }))];
const asUnchanged = (post: DesiredPost): UnchangedPost => ({ key: post.key, file: post.file, shapeHash: post.shapeHash, fingerprint: post.fingerprint, accountIds: [PHOTO], scheduledAt: post.shape.scheduledAt });
const contentOf = (card: PostCard) => JSON.parse(card.content) as PostContent;
const noProbe = () => Promise.reject(new Error('no media to probe'));

/** readCards over `posts`, all of them unchanged files, counting the posts it reads in full. */
async function cardsOf(kept: RunCache, options: { from?: DesiredPost[]; caption?: number; timezone?: string } = {}) {
  const from = options.from ?? posts;
  const read: string[] = [];
  const cards = await readCards({
    posts: [],
    unchanged: from.map(asUnchanged),
    readInFull: (unchanged) => {
      read.push(...unchanged.map((post) => post.key));
      return Promise.resolve(unchanged.map((post) => from.find((candidate) => candidate.key === post.key)!));
    },
    timezone: options.timezone ?? 'Europe/Berlin',
    capabilities: options.caption === undefined ? new Map() : new Map([[PHOTO, capabilities(PHOTO, { maxLength: options.caption, lengthUnit: 'characters' } as never)]]),
    probe: noProbe,
    kept,
  });
  await kept.save();
  return { cards, read };
}

describe('readCards', () => {
  it('reads an unchanged post in full only when .postsync/cache keeps no card of it', async () => {
    const dir = await testdir();
    const open = () => RunCache.open(dir, { enabled: true, build: 'test' });
    const first = await cardsOf(open());
    expect(first.read).toEqual(['a', 'b']);
    expect(first.cards.map((card) => [card.key, contentOf(card).text, card.slot?.time ?? null])).toEqual([['a', 'Alpha', '09:00'], ['b', 'Beta, a little longer', null]]);

    const second = await cardsOf(open());
    expect(second.read).toEqual([]);
    expect(second.cards).toEqual(first.cards);

    // Another shape from the same bytes (a `vars:` value changed) is another post: its card is made again.
    const edited = [posts[0]!, { ...desired('b', shape({ content: 'Beta, edited' })), fingerprint: posts[1]!.fingerprint }];
    const third = await cardsOf(open(), { from: edited });
    expect(third.read).toEqual(['b']);
    expect(contentOf(third.cards[1]!).text).toBe('Beta, edited');

    // The same bytes moved to another file (its key kept by an `id:`) may name other media files: made again.
    const moved = [posts[0]!, { ...edited[1]!, file: 'posts/renamed.md' }];
    const fourth = await cardsOf(open(), { from: moved });
    expect(fourth.read).toEqual(['b']);
    expect(fourth.cards[1]!.file).toBe('posts/renamed.md');
  });

  it('makes every card again under other caption rules or another time zone', async () => {
    const dir = await testdir();
    const open = () => RunCache.open(dir, { enabled: true, build: 'test' });
    await cardsOf(open());
    const limited = await cardsOf(open(), { caption: 4 });
    expect(limited.read).toEqual(['a', 'b']);
    expect(contentOf(limited.cards[1]!).targets[0]).toMatchObject({ shown: 'Beta', overflow: ', a little longer', length: 21 });
    expect((await cardsOf(open(), { caption: 4 })).read).toEqual([]);
    const elsewhere = await cardsOf(open(), { caption: 4, timezone: 'America/New_York' });
    expect(elsewhere.read).toEqual(['a', 'b']);
    expect(elsewhere.cards[0]!.slot?.time).toBe('03:00');
  });

  it('keeps nothing with the cache disabled (--no-cache)', async () => {
    const kept = RunCache.disabled();
    expect((await cardsOf(kept)).read).toEqual(['a', 'b']);
    expect((await cardsOf(kept)).read).toEqual(['a', 'b']);
  });
});

/** readCards over `from`, every post read in full (as watch holds them). */
const fullCards = (kept: CardStore, from: DesiredPost[], timezone = 'Europe/Berlin') =>
  readCards({ posts: from, unchanged: [], readInFull: () => Promise.reject(new Error('nothing to read')), timezone, capabilities: new Map(), probe: noProbe, kept });

describe('cardMemo (watch --calendar)', () => {
  it('makes cards again only for the posts a save changed, and forgets removed posts', async () => {
    const memo = cardMemo();
    const first = await fullCards(memo, posts);
    const edited = [posts[0]!, desired('b', shape({ content: 'Beta, edited' }))];
    const second = await fullCards(memo, edited);
    expect(second[0]).toBe(first[0]);
    expect(second[1]).not.toBe(first[1]);
    expect(contentOf(second[1]!).text).toBe('Beta, edited');

    // `a` is left out of one calendar: the next one makes its card again, rather than keeping every card ever made.
    await fullCards(memo, [edited[1]!]);
    const fourth = await fullCards(memo, edited);
    expect(fourth[0]).not.toBe(first[0]);
    expect(fourth[0]).toEqual(first[0]);
    expect(fourth[1]).toBe(second[1]);
  });

  it('starts over in another time zone', async () => {
    const memo = cardMemo();
    const berlin = await fullCards(memo, posts);
    const newYork = await fullCards(memo, posts, 'America/New_York');
    expect(newYork[0]!.slot?.time).toBe('03:00');
    expect((await fullCards(memo, posts, 'Europe/Berlin'))[0]).not.toBe(berlin[0]);
  });

  it('gives a post read in full the card .postsync/cache keeps of the very same post', async () => {
    const kept = RunCache.open(await testdir(), { enabled: true, build: 'test' });
    const first = await fullCards(kept, posts);
    expect((await fullCards(kept, posts))[0]).toBe(first[0]);
  });
});
