import { mkdir, readdir, readFile, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openNoFollow } from '../../src/write-guard/anchored-folder.js';
import { guardWrite } from '../../src/write-guard/guard-write.js';
import { testdir } from '../helpers/testdir.js';

describe('guardWrite', () => {
  it('passes a path inside the root whose existing folders are real ones, made or not yet', async () => {
    const root = await testdir({ 'a/file.txt': 'x' });
    await guardWrite(join(root, 'a/file.txt'), { root });
    await guardWrite(join(root, 'a/b/c/new.txt'), { root });
    await guardWrite(join(root, 'new.txt'), { root });
  });

  it('refuses a path outside the root, and the root itself', async () => {
    const root = await testdir();
    for (const path of [join(root, '..', 'elsewhere.txt'), '/tmp/elsewhere.txt', root]) {
      await expect(guardWrite(path, { root })).rejects.toThrow(`postsync refuses to write ${join(path)}: it is outside ${root}`);
    }
  });

  it('refuses a link at the file or at any folder on the way, dangling or not, naming it', async () => {
    const root = await testdir({ 'outside/keep.txt': 'x', 'project/real/.keep': '' });
    const project = join(root, 'project');
    await symlink(join(root, 'outside'), join(project, 'linked'));
    await symlink(join(root, 'outside/missing.txt'), join(project, 'real/dangling.txt'));
    await expect(guardWrite(join(project, 'linked/deep/file.txt'), { root: project })).rejects.toThrow(`postsync refuses to write through ${join(project, 'linked')}: it is a symbolic link`);
    await expect(guardWrite(join(project, 'real/dangling.txt'), { root: project })).rejects.toThrow(`postsync refuses to write through ${join(project, 'real/dangling.txt')}: it is a symbolic link`);
    // The root is the user's choice: a link there is followed.
    await guardWrite(join(project, 'linked/file.txt'), { root: join(project, 'linked') });
  });
});

describe('openNoFollow', () => {
  it('appends to a file, or empties it first, and never opens a link at the path', async () => {
    const root = await testdir({ 'outside/keep.txt': 'untouched\n' });
    await mkdir(join(root, 'project'));
    const path = join(root, 'project/journal');
    for (const [text, truncate] of [['one\n', true], ['two\n', false]] as const) {
      const handle = await openNoFollow(path, { truncate });
      await handle.writeFile(text);
      await handle.close();
    }
    expect(await readFile(path, 'utf8')).toBe('one\ntwo\n');
    await symlink(join(root, 'outside/made-here'), join(root, 'project/dangling'));
    await symlink(join(root, 'outside/keep.txt'), join(root, 'project/linked'));
    for (const name of ['dangling', 'linked']) {
      await expect(openNoFollow(join(root, 'project', name), { truncate: false })).rejects.toThrow('it is a symbolic link');
    }
    expect(await readdir(join(root, 'outside'))).toEqual(['keep.txt']);
    expect(await readFile(join(root, 'outside/keep.txt'), 'utf8')).toBe('untouched\n');
  });
});
