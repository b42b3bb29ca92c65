import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.js';
import { DEMO_ACCOUNTS, DEMO_API_KEY } from '../../src/emulator/index.js';
import { makePng, writeMp4File } from '../helpers/media-generators/index.js';
import { buildPlan } from '../../src/pipeline/build-plan.js';
import { connect } from '../../src/pipeline/connect.js';
import { hasChanges } from '../../src/plan/has-changes.js';
import { readState, readStateSection } from '../../src/state/state-file.js';
import { runCli, startCli } from '../helpers/cli.js';
import { useEmulator } from '../helpers/emulator.js';
import { HoldingProxy } from '../helpers/holding-proxy.js';
import { applyInProcess } from '../helpers/in-process.js';
import { testdir } from '../helpers/testdir.js';

const emulator = useEmulator();
const env = { POSTSYNC_API_KEY: DEMO_API_KEY };
let proxy: HoldingProxy;
beforeAll(async () => {
  proxy = await HoldingProxy.start(emulator().baseUrl);
});
afterAll(() => proxy.close());

/** Deterministic "random" kill points, so a failure can be replayed. */
function* killPoints(seed: number, count: number, max: number): Generator<number> {
  let state = seed >>> 0;
  for (let i = 0; i < count; i += 1) {
    // mulberry32
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), state | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    yield 1 + (((t ^ (t >>> 14)) >>> 0) % max);
  }
}

async function remoteContents(): Promise<string[]> {
  const items = (await emulator().api('GET', '/posts?limit=100')).body.data.items as { content: string }[];
  return items.map((p) => p.content).sort();
}

async function expectConverged(dir: string, expected: string[]): Promise<void> {
  const config = await loadConfig({ cwd: dir, env, flags: { apiUrl: proxy.baseUrl } });
  const connection = await connect(config, { ci: false });
  try {
    const { plan } = await buildPlan({ config, connection, state: await readStateSection(config.statePath, connection.project), prune: true, selection: null, now: new Date() });
    expect(hasChanges(plan), JSON.stringify(plan.changes.filter((c) => c.action !== 'noop'))).toBe(false);
  } finally {
    await connection.close();
  }
  expect(await remoteContents()).toEqual([...expected].sort());
}

describe('apply killed with SIGKILL at random points', () => {
  it('always recovers on the next run: one remote post per file, nothing lost, nothing twice', async () => {
    await emulator().reset();
    const files: Record<string, string | Buffer> = { 'postsync.yaml': `accounts:\n  photo: ${DEMO_ACCOUNTS.photo}\n` };
    for (let i = 0; i < 4; i += 1) files[`media/i${i}.png`] = makePng({ width: 40 + i, height: 40 });
    const dir = await testdir(files);
    const texts = new Map<string, string>();
    const write = async (name: string, text: string, image: number) => {
      texts.set(name, text);
      await writeFile(join(dir, 'posts', `${name}.md`), `---\ntargets: [photo]\nmedia: [media/i${image}.png]\n---\n${text}\n`);
    };
    await import('node:fs/promises').then((fs) => fs.mkdir(join(dir, 'posts')));

    let round = 0;
    let kills = 0;
    for (const point of killPoints(7, 20, 10)) {
      round += 1;
      // New work every round: three new posts and an edit, so the killed run has creates, uploads and updates in flight.
      for (let j = 0; j < 3; j += 1) await write(`r${round}-p${j}`, `round ${round} post ${j}`, (round + j) % 4);
      if (round > 1) await write(`r${round - 1}-p0`, `round ${round - 1} post 0, edited`, round % 4);

      let seen = 0;
      const held = proxy.holdNext(() => (seen += 1) === point);
      const run = startCli(['--api-url', proxy.baseUrl, 'apply', '--yes', '--concurrency', '2'], { cwd: dir, env });
      const outcome = await Promise.race([held.then(() => 'held' as const), run.done.then(() => 'finished' as const)]);
      if (outcome === 'held') {
        run.child.kill('SIGKILL');
        kills += 1;
      } else {
        proxy.cancelHold();
      }
      await run.done;
      // The next run recovers: the apply use case in this process (what `apply --yes` calls), so that a
      // round spawns only the CLI it kills. A run that finished before its kill point leaves nothing to do.
      expect((await applyInProcess(dir, proxy.baseUrl)).blocked).toBe(0);
      await expectConverged(dir, [...texts.values()]);
    }
    console.info(`kill test: ${round} rounds, ${kills} SIGKILLs, ${texts.size} posts, 0 duplicates`);
    expect(kills).toBeGreaterThanOrEqual(15);
  }, 240_000);

  it('resumes a multipart upload killed midway, sending only the missing parts', async () => {
    await emulator().reset();
    const dir = await testdir({
      'postsync.yaml': `accounts:\n  video: ${DEMO_ACCOUNTS.video}\n`,
      'posts/film.md': '---\ntargets:\n  - account: video\n    options: { vidATitle: "The film" }\nmedia: [media/film.mp4]\n---\nOur film.\n',
    });
    await import('node:fs/promises').then((fs) => fs.mkdir(join(dir, 'media')));
    await writeMp4File(join(dir, 'media/film.mp4'), { durationSeconds: 60, videoCodec: 'avc1', audioCodec: 'mp4a', width: 1920, height: 1080, sizeBytes: 42 * 1024 * 1024 });
    const api = emulator();
    await api.clearLog();
    const partPuts = async () => (await api.requestLog()).filter((entry) => entry.method === 'PUT' && entry.path.startsWith('/_storage/') && entry.status === 200);

    const run = startCli(['--api-url', api.baseUrl, 'apply', '--yes'], { cwd: dir, env });
    for (let waited = 0; (await partPuts()).length < 2; waited += 1) {
      expect(waited).toBeLessThan(400);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    run.child.kill('SIGKILL');
    await run.done;
    const storedBefore = (await partPuts()).length;
    const section = Object.values((await readState(join(dir, '.postsync/state.json'))).targets)[0]!;
    const [pending] = Object.values(section.uploads);
    expect(pending?.partCount).toBe(9);
    expect(storedBefore).toBeLessThan(9);

    await api.clearLog();
    const resumed = await runCli(['--api-url', api.baseUrl, 'apply', '--yes'], { cwd: dir, env });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain('resuming media/film.mp4');
    const sentAfter = (await partPuts()).length;
    expect(sentAfter).toBeLessThanOrEqual(9 - storedBefore + 1);
    expect(sentAfter).toBeGreaterThan(0);
    const [post] = (await api.api('GET', '/posts')).body.data.items as { media: { sourceAvailable: boolean; durationSeconds: number }[] }[];
    expect(post!.media[0]).toMatchObject({ sourceAvailable: true, durationSeconds: 60 });
  }, 120_000);
});
