import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { DEMO_ACCOUNTS, DEMO_API_KEY } from '../../src/emulator/index.js';
import { startTestEmulator, type TestEmulator } from './emulator.js';
import { HostileApi, type Misbehaviour } from './hostile-api.js';
import { expectApplied } from './in-process.js';
import { testdir } from './testdir.js';

export type Json = Record<string, any>;

/** What a crash looks like on stderr: a JavaScript error's own words, or a stack line. */
export const CRASH = /TypeError|RangeError|Cannot read propert|is not a function|is not iterable|^\s+at /m;

/**
 * One emulator behind one hostile API for a test file (started before its tests, closed after
 * them), and what the hostile API does to the answers it forwards. Each case sets the hooks it
 * needs; `freshProject` clears them. Cases of a file run one after another: each starts from a
 * reset emulator.
 */
export interface HostileWorld {
  emulator: TestEmulator;
  hostile: HostileApi;
  /** What the hostile API does to a post it answers with (a listing's items, or one post); none: answers as the emulator. */
  rewritePost: ((post: Json) => void) | undefined;
  /** What the hostile API does to any other JSON answer's `data`, given the path asked for. */
  rewriteData: ((data: Json, path: string) => void) | undefined;
  /** What the hostile API does to the text of a JSON answer, last. */
  rewriteText: ((text: string, url: URL) => string) | undefined;
  /** A request the hostile API answers itself (returns true) instead of forwarding it. */
  misbehave: Misbehaviour | undefined;
  /** The CLI's environment: the demo key, the hostile API's URL. */
  env(): Record<string, string>;
  /** A project of one post with one image, nothing applied yet; the hooks cleared. */
  freshProject(): Promise<string>;
  /** `freshProject` applied through the honest API, then edited (so the next apply patches it). */
  appliedProject(): Promise<string>;
  /** `apply --yes` of a project through the hostile API as it is now, in this process: a case's setup, not what it checks. */
  applyInProcess(dir: string): Promise<void>;
}

export function hostileWorld(): HostileWorld {
  const world = {
    rewritePost: undefined,
    rewriteData: undefined,
    rewriteText: undefined,
    misbehave: undefined,
    env: () => ({ POSTSYNC_API_KEY: DEMO_API_KEY, POSTSYNC_API_URL: world.hostile.baseUrl }),
    async freshProject() {
      await world.emulator.reset();
      world.rewritePost = undefined;
      world.rewriteData = undefined;
      world.rewriteText = undefined;
      world.misbehave = undefined;
      return testdir({
        'postsync.yaml': `timezone: UTC\naccounts:\n  photo: ${DEMO_ACCOUNTS.photo}\n`,
        'media/cover.png': await readFile(new URL('../../examples/media/cover.png', import.meta.url)),
        'posts/hello.md': '---\nscheduledAt: 2027-03-01 09:00\ntargets: [photo]\nmedia: [media/cover.png]\n---\nHello\n',
      });
    },
    applyInProcess: (dir: string) => expectApplied(dir, world.hostile.baseUrl),
    async appliedProject() {
      const dir = await world.freshProject();
      await world.applyInProcess(dir);
      await writeFile(join(dir, 'posts/hello.md'), '---\nscheduledAt: 2027-03-01 09:00\ntargets: [photo]\nmedia: [media/cover.png]\n---\nHello again\n');
      return dir;
    },
  } as unknown as HostileWorld;
  beforeAll(async () => {
    world.emulator = await startTestEmulator();
    world.hostile = await HostileApi.start(world.emulator.baseUrl, {
      misbehave: (req, res, url) => world.misbehave?.(req, res, url) ?? false,
      rewriteJson: (answer, url) => {
        const data = (answer as { data?: Json }).data;
        if (data === undefined || data === null) return answer;
        world.rewriteData?.(data, url.pathname.replace(/^\/public\/v1/, ''));
        const rewritePost = world.rewritePost;
        if (rewritePost === undefined) return answer;
        if (Array.isArray(data.items)) data.items.forEach((item: Json) => rewritePost(item));
        else if (typeof data.id === 'string' && 'targets' in data) rewritePost(data);
        return answer;
      },
      rewriteText: (text, url) => world.rewriteText?.(text, url) ?? text,
    });
  });
  afterAll(async () => {
    await world.hostile.close();
    await world.emulator.close();
  });
  return world;
}
