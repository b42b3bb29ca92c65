import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../src/emulator/index.js';
import { runCli } from '../helpers/cli.js';
import { CRASH, hostileWorld } from '../helpers/hostile-world.js';
/**
 * `import` writes files named by the remote's post ids: nothing outside the content folder, every
 * printed name escaped.
 */

const world = hostileWorld();
describe('attack: import writes what the remote names', () => {
  it.each(['../../../../outside', '/etc/passwd', 'a\n::error::forged\u001b', '.hidden/../x'])('a post id of %j: nothing is written outside the content folder, and every name printed is escaped', async (id) => {
    const dir = await world.freshProject();
    await rm(join(dir, 'posts'), { recursive: true });
    const created = await world.emulator.api('POST', '/posts', { body: { content: 'Imported text', targets: [{ socialAccountId: DEMO_ACCOUNTS.photo }], mediaIds: [] } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    world.rewritePost = (post) => (post.id = id);
    const before = await listFiles(dir);
    const result = await runCli(['import'], { cwd: dir, env: world.env() });
    const output = `${result.stdout}${result.stderr}`;
    expect(output).not.toMatch(CRASH);
    expect(output).not.toMatch(/[\u001b\r]/);
    expect(output).not.toMatch(/^::error::forged/m);
    const written = (await listFiles(dir)).filter((file) => !before.includes(file) && !file.startsWith('.postsync/'));
    for (const file of written) expect(file, `written: ${written.join(', ')}`).toMatch(/^posts\/imported\/[^/]+\/[^/]+\.md$/);
  }, 120_000);
});

async function listFiles(dir: string, under = ''): Promise<string[]> {
  const entries = await readdir(join(dir, under), { withFileTypes: true });
  const files = await Promise.all(entries.map((entry) => (entry.isDirectory() ? listFiles(dir, join(under, entry.name)) : [join(under, entry.name)])));
  return files.flat();
}
