import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_API_KEY } from '../../src/emulator/index.js';
import { prettyCanonicalJson } from '../../src/state/hash.js';
import { journalPathFor, readJournalSync } from '../../src/state/journal.js';
import { readState } from '../../src/state/state-file.js';
import { runCli, startCli } from '../helpers/cli.js';
import { useEmulator } from '../helpers/emulator.js';
import { HoldingProxy } from '../helpers/holding-proxy.js';
import { demoProject, post } from './project.js';

const emulator = useEmulator();
let proxy: HoldingProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
});

describe('an apply killed between the create and its state write', () => {
  it('leaves one remote post, which the next apply adopts and edits', async () => {
    const api = emulator();
    await api.reset();
    proxy = await HoldingProxy.start(api.baseUrl);
    const dir = await demoProject({ 'launch.md': post({ body: 'First words.' }) });
    const env = { POSTSYNC_API_KEY: DEMO_API_KEY };

    const held = proxy.holdNext((method, path) => method === 'POST' && path.endsWith('/posts'));
    const run = startCli(['--api-url', proxy.baseUrl, 'apply', '--yes'], { cwd: dir, env });
    expect((await held).status).toBe(201);
    run.child.kill('SIGKILL');
    expect((await run.done).signal).toBe('SIGKILL');

    const listed = async () => (await api.api('GET', '/posts')).body.data.items as { id: string; content: string }[];
    expect(await listed()).toHaveLength(1);
    // What is on disk: the state file with the killed run's journal replayed.
    const state = await readState(join(dir, '.postsync/state.json'));
    const section = Object.values(state.targets)[0]!;
    expect(Object.keys(section.pending)).toEqual(['launch']);
    expect(section.posts).toEqual({});

    await writeFile(join(dir, 'posts/launch.md'), post({ body: 'Edited after the crash.' }));
    const again = await runCli(['--api-url', proxy.baseUrl, 'apply', '--yes'], { cwd: dir, env });
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('took over the state lock left by postsync apply');
    expect(again.stdout).toContain('resume an interrupted create');

    const posts = await listed();
    expect(posts).toHaveLength(1);
    expect(posts[0]!.content).toBe('Edited after the crash.');
    const creates = (await api.requestLog()).filter((entry) => entry.method === 'POST' && entry.path.endsWith('/posts'));
    expect(new Set(creates.map((entry) => entry.idempotencyKey)).size).toBe(1);
    expect((await runCli(['--api-url', proxy.baseUrl, 'plan'], { cwd: dir, env })).stdout).toContain('No changes.');
  });
});

describe('an apply killed while its changes are only in the state journal', () => {
  it('is read through by plan, folded by the next apply, and converges: one post per file', async () => {
    const api = emulator();
    const env = { POSTSYNC_API_KEY: DEMO_API_KEY };
    await api.reset();
    proxy = await HoldingProxy.start(api.baseUrl);
    const texts = Array.from({ length: 8 }, (_, i) => `Journal post ${i}.`);
    const dir = await demoProject(Object.fromEntries(texts.map((body, i) => [`p${i}.md`, post({ body })])));
    const statePath = join(dir, '.postsync/state.json');

    // One create at a time; the fifth is done by the service but its answer never arrives.
    let creates = 0;
    const held = proxy.holdNext((method, path) => method === 'POST' && path.endsWith('/posts') && ++creates === 5);
    const run = startCli(['--api-url', proxy.baseUrl, 'apply', '--yes', '--concurrency', '1'], { cwd: dir, env });
    expect((await held).status).toBe(201);
    run.child.kill('SIGKILL');
    expect((await run.done).signal).toBe('SIGKILL');

    // Nothing was folded: every change of the killed run is in the journal alone.
    expect(existsSync(statePath)).toBe(false);
    const journal = await readFile(journalPathFor(statePath), 'utf8');
    expect(readJournalSync(journalPathFor(statePath))!.records.length).toBeGreaterThanOrEqual(9);
    const onDisk = Object.values((await readState(statePath)).targets)[0]!;
    expect(Object.keys(onDisk.posts)).toHaveLength(4);
    expect(Object.keys(onDisk.pending)).toHaveLength(1);
    expect(Object.keys(onDisk.media)).toHaveLength(1);

    // plan reads the state through the journal (4 owned, 1 create to resume, 3 to make) and writes nothing.
    const planned = await runCli(['--api-url', proxy.baseUrl, 'plan', '--json'], { cwd: dir, env });
    expect(JSON.parse(planned.stdout).summary).toMatchObject({ create: 4, noop: 4, update: 0, delete: 0 });
    expect(existsSync(statePath)).toBe(false);
    expect(await readFile(journalPathFor(statePath), 'utf8')).toBe(journal);

    const again = await runCli(['--api-url', proxy.baseUrl, 'apply', '--yes'], { cwd: dir, env });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('resume an interrupted create');
    expect(existsSync(journalPathFor(statePath))).toBe(false);
    const text = await readFile(statePath, 'utf8');
    expect(text).toBe(prettyCanonicalJson(JSON.parse(text)));
    const section = Object.values(JSON.parse(text).targets)[0] as { posts: object; pending: object };
    expect(Object.keys(section.posts)).toHaveLength(8);
    expect(section.pending).toEqual({});

    const remote = (await api.api('GET', '/posts?limit=100')).body.data.items as { content: string }[];
    expect(remote.map((item) => item.content).sort()).toEqual([...texts].sort());
    const keys = (await api.requestLog()).filter((entry) => entry.method === 'POST' && entry.path.endsWith('/posts')).map((entry) => entry.idempotencyKey);
    expect(new Set(keys).size).toBe(8);
    expect((await runCli(['--api-url', proxy.baseUrl, 'plan'], { cwd: dir, env })).stdout).toContain('No changes.');
  }, 60_000);
});
