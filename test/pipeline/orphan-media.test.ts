import { describe, expect, it } from 'vitest';
import type { Post } from '../../src/api/types.js';
import { learnOrphanMedia } from '../../src/pipeline/orphan-media.js';
import { livePostsById } from '../../src/plan/plan-context.js';
import { emptyProjectState } from '../../src/state/state-file.js';
import { applyNow, applyWorld, planNow, pngMedia, remotePosts, type ApplyWorld } from '../apply/apply-world.js';
import { useEmulator } from '../helpers/emulator.js';
import { desired, shape } from '../helpers/fixtures.js';

/** Learning the content of orphan posts' media from the service: the emulator's real storage. */
const emulator = useEmulator();

/** One post with an uploaded image applied, then the state forgotten: the post is an orphan. */
async function orphanWorld(): Promise<{ world: ApplyWorld; post: ReturnType<typeof desired>; live: Post; sha256: string }> {
  const world = await applyWorld(emulator());
  const cover = await pngMedia(world, 'cover.png');
  const post = desired('launch', shape({ media: [cover.sha256] }), { media: [cover] });
  expect((await applyNow(world, await planNow(world, [post]))).failed).toEqual([]);
  const [live] = await remotePosts(world);
  return { world, post, live: live!, sha256: cover.sha256 };
}

const storageReads = async (world: ApplyWorld) => (await world.api.requestLog()).filter((entry) => entry.method === 'GET' && entry.path.startsWith('/_storage/'));

describe('learnOrphanMedia', () => {
  it('fetches and hashes the media of an orphan a new post could be, once', async () => {
    const { world, post, live, sha256 } = await orphanWorld();
    const state = emptyProjectState(world.target);
    await world.api.clearLog();
    const learned = await learnOrphanMedia({ posts: [post, desired('twin', post.shape, { media: post.media })], state, live: livePostsById([live]) });
    expect(learned).toEqual(new Map([[live.media[0]!.id, sha256]]));
    expect(await storageReads(world)).toHaveLength(1);

    // A session keeps what it learned: the next plan fetches nothing again.
    const kept = new Map<string, string>();
    await learnOrphanMedia({ posts: [post], state, live: livePostsById([live]), learned: kept });
    await world.api.clearLog();
    expect(await learnOrphanMedia({ posts: [post], state, live: livePostsById([live]), learned: kept })).toEqual(learned);
    expect(await storageReads(world)).toEqual([]);
  });

  it('fetches nothing for a post the state owns, or an orphan no new post could be', async () => {
    const { world, post, live } = await orphanWorld();
    await world.api.clearLog();
    expect(await learnOrphanMedia({ posts: [post], state: world.store.section, live: livePostsById([live]) })).toEqual(new Map());
    const other = desired('other', { ...post.shape, content: 'Other words' }, { media: post.media });
    expect(await learnOrphanMedia({ posts: [other], state: emptyProjectState(world.target), live: livePostsById([live]) })).toEqual(new Map());
    expect(await storageReads(world)).toEqual([]);
  });

  it('leaves unknown, without failing, a media the service does not offer, refuses, or serves over plain http elsewhere', async () => {
    const { world, post, live } = await orphanWorld();
    const state = emptyProjectState(world.target);
    const media = live.media[0]!;
    const variants = [
      { ...media, sourceAvailable: false },
      { ...media, url: `${world.api.origin}/_storage/no-such-object` },
      { ...media, url: 'http://example.com/cover.png' },
    ];
    for (const variant of variants) {
      const learned = await learnOrphanMedia({ posts: [post], state, live: livePostsById([{ ...live, media: [variant] }]) });
      expect(learned).toEqual(new Map());
    }
  });
});
