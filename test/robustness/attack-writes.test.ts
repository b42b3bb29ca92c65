import { access, readdir, readFile, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { git } from '../helpers/git.js';
import { testdir } from '../helpers/testdir.js';

const draft = '---\ntargets: []\n---\nHello\n';

describe('attack: writes through committed symlinks', () => {
  it('calendar --out postsync-calendar (the plan workflow\'s folder) committed as a symlink writes nothing outside the project', async () => {
    const outside = await testdir();
    const root = await testdir({ 'posts/a.md': draft });
    await symlink(outside, join(root, 'postsync-calendar'));
    const result = await runCli(['calendar', '--local', '--out', 'postsync-calendar'], { cwd: root });
    expect(await readdir(outside)).toEqual([]);
    expect(result.code).not.toBe(0);
  });

  it('calendar --ics under a folder committed as a symlink writes nothing outside the project', async () => {
    const outside = await testdir();
    const root = await testdir({ 'posts/a.md': draft });
    await symlink(outside, join(root, 'feeds'));
    const result = await runCli(['calendar', '--local', '--out', 'site', '--ics', 'feeds/calendar.ics'], { cwd: root });
    expect(await readdir(outside)).toEqual([]);
    expect(result.code).not.toBe(0);
  });

  it('plan --out plan.json never overwrites the file a committed symlink of that name points at', async () => {
    const outside = await testdir({ 'victim.txt': 'ORIGINAL' });
    const root = await testdir({ 'posts/a.md': draft });
    await symlink(join(outside, 'victim.txt'), join(root, 'plan.json'));
    const result = await runCli(['plan', '--local', '--out', 'plan.json'], { cwd: root });
    expect(await readFile(join(outside, 'victim.txt'), 'utf8')).toBe('ORIGINAL');
    expect(result.code).not.toBe(0);
  });

  it('state: in postsync.yaml cannot put the state file inside .git (git\'s own files)', async () => {
    const root = await testdir({ 'posts/a.md': draft, 'postsync.yaml': 'state: .git/hooks/post-checkout\n' });
    await git(root, 'init', '-q');
    const result = await runCli(['apply', '--local', '--yes'], { cwd: root });
    const written = await access(join(root, '.git/hooks/post-checkout')).then(() => true, () => false);
    expect(written).toBe(false);
    expect(result.code).not.toBe(0);
  });
});
