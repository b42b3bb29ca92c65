import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_API_KEY } from '../../src/emulator/index.js';
import { makePng } from '../helpers/media-generators/index.js';
import { runCli } from '../helpers/cli.js';
import { useEmulator } from '../helpers/emulator.js';
import { demoProject, post } from './project.js';

const emulator = useEmulator();

describe('media files', () => {
  it('are uploaded once across posts and runs, and a changed file updates every post using it', async () => {
    const api = emulator();
    const dir = await demoProject({
      'one.md': post({ body: 'One.' }),
      'two.md': post({ body: 'Two.' }),
      'film.md': post({ body: 'Film.', targets: '[short]', media: '[media/teaser.mp4]' }),
    });
    const cli = (...args: string[]) => runCli(['--api-url', api.baseUrl, ...args], { cwd: dir, env: { POSTSYNC_API_KEY: DEMO_API_KEY } });
    const storagePuts = async () => (await api.requestLog()).filter((entry) => entry.method === 'PUT' && entry.path.startsWith('/_storage/')).length;

    await api.clearLog();
    expect((await cli('apply', '--yes')).code).toBe(0);
    expect(await storagePuts()).toBe(2);

    await writeFile(join(dir, 'posts/three.md'), post({ body: 'Three.' }));
    await api.clearLog();
    const third = await cli('apply', '--yes');
    expect(third.stdout).not.toContain('Media:');
    expect(await storagePuts()).toBe(0);

    await writeFile(join(dir, 'media/cover.png'), makePng({ width: 1080, height: 1080, rgb: { r: 10, g: 200, b: 30 } }));
    const plan = await cli('plan');
    for (const key of ['one', 'two', 'three']) expect(plan.stdout).toContain(`~ update  ${key}`);
    expect(plan.stdout).not.toContain('~ update  film');
    expect(plan.stdout.match(/      media: /g)).toHaveLength(3);
    expect(plan.stdout).toContain('Media: 1 file to upload');
    await api.clearLog();
    expect((await cli('apply', '--yes')).code).toBe(0);
    expect(await storagePuts()).toBe(1);
    expect((await cli('plan')).stdout).toContain('No changes.');
  });
});
