import { mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_API_KEY } from '../../src/emulator/index.js';
import { runCli } from '../helpers/cli.js';
import { useEmulator } from '../helpers/emulator.js';
import { git } from '../helpers/git.js';
import { testdir } from '../helpers/testdir.js';
import { demoProject, post } from './project.js';

const emulator = useEmulator();

/** What `actions/checkout` leaves in .git/config: the workflow's token. */
const TOKEN = 'ghs_CHECKOUT-TOKEN-0123456789abcdef';

async function textOfFilesUnder(dir: string): Promise<string> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  const files = entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
  return (await Promise.all(files.map((file) => readFile(file, 'utf8')))).join('\n');
}

describe('snippets a pull request cannot use to publish secrets', () => {
  it('refuses `{{> .git/config }}`, `.env`, an ignored snippet and a symlink out: the token reaches neither the remote nor the calendar', async () => {
    const api = emulator();
    await api.reset();
    const outside = await testdir({ 'token.txt': TOKEN });
    const dir = await demoProject({
      'git.md': post({ body: 'Hello\n{{> .git/config }}' }),
      'env.md': post({ body: 'Hello\n{{> .env }}' }),
      'ignored.md': post({ body: 'Hello\n{{> snippets/local.md }}' }),
      'linked.md': post({ body: 'Hello\n{{> snippets/linked.md }}' }),
      'fine.md': post({ body: 'Hello\n{{> snippets/sig.md }}' }),
    });
    await git(dir, 'init', '-q');
    await git(dir, 'config', 'http.https://github.com/.extraheader', `AUTHORIZATION: basic ${TOKEN}`);
    await writeFile(join(dir, '.env'), `TOKEN=${TOKEN}\n`);
    await writeFile(join(dir, '.gitignore'), 'snippets/local.md\n');
    await mkdir(join(dir, 'snippets'));
    await writeFile(join(dir, 'snippets/sig.md'), '— the team');
    await symlink(join(outside, 'token.txt'), join(dir, 'snippets/linked.md'));
    await writeFile(join(dir, 'snippets/local.md'), TOKEN);

    const cli = (...args: string[]) => runCli(['--api-url', api.baseUrl, ...args], { cwd: dir, env: { POSTSYNC_API_KEY: DEMO_API_KEY } });
    const applied = await cli('apply', '--yes');
    expect(applied.code).toBe(1);
    expect(applied.stdout + applied.stderr).toContain('snippet `.git/config` is refused');
    expect(applied.stdout + applied.stderr).not.toContain(TOKEN);
    const remote = (await api.api('GET', '/posts?limit=100')).body.data.items as { content: string }[];
    expect(remote.map((p) => p.content)).toEqual(['Hello\n— the team']);

    const calendar = await cli('calendar', '--out', 'calendar');
    expect(calendar.stdout + calendar.stderr).not.toContain(TOKEN);
    expect(await textOfFilesUnder(join(dir, 'calendar'))).not.toContain(TOKEN);
  });
});
