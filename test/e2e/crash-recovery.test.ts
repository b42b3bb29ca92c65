import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_API_KEY } from '../../src/emulator/index.js';
import { readState } from '../../src/state/store.js';
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
