import * as nodeFs from 'node:fs/promises';
import { readdir, readFile, rename, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFileExclusive, writeFileAtomic, type AtomicFileSystem } from '../../src/state/atomic.js';
import { AnchoredFolder, openNoFollow } from '../../src/write-guard/anchored-folder.js';
import { testdir } from '../helpers/testdir.js';

/** A project whose folder `posts/2027-03` another process swaps for a link to `outside`, and the swap itself. */
async function swappable() {
  const outside = await testdir({ 'victim.md': 'ORIGINAL\n' });
  const root = await testdir({ 'posts/2027-03/keep.md': 'keep\n' });
  const folder = join(root, 'posts/2027-03');
  const swap = async () => {
    await rename(folder, `${folder}.aside`);
    await symlink(outside, folder);
  };
  return { outside, root, folder, swap };
}

/** Node's file system, with `swap` run once, as the temp file is about to be opened: after every check. */
function swappingFs(swap: () => Promise<void>): AtomicFileSystem {
  let swapped = false;
  return {
    ...nodeFs,
    open: (async (...args: Parameters<typeof nodeFs.open>) => {
      if (!swapped) {
        swapped = true;
        await swap();
      }
      return nodeFs.open(...args);
    }) as typeof nodeFs.open,
  };
}

describe('AnchoredFolder: a folder swapped for a link after it was checked', () => {
  it('writes in the folder it opened, never where the link points, and reports the move (writeFileAtomic, createFileExclusive)', async () => {
    for (const write of [
      (path: string, root: string, fs: AtomicFileSystem) => writeFileAtomic(path, 'NEW\n', { root, fs }),
      (path: string, root: string, fs: AtomicFileSystem) => createFileExclusive(path, 'NEW\n', { root, fs }),
    ]) {
      const { outside, root, folder, swap } = await swappable();
      await expect(write(join(folder, 'victim.md'), root, swappingFs(swap))).rejects.toThrow(`the folder ${folder} was moved or replaced while postsync wrote victim.md in it`);
      expect(await readdir(outside)).toEqual(['victim.md']);
      expect(await readFile(join(outside, 'victim.md'), 'utf8')).toBe('ORIGINAL\n');
      expect(await readFile(join(`${folder}.aside`, 'victim.md'), 'utf8')).toBe('NEW\n');
    }
  });

  it('opens a file to append in the folder it opened (openNoFollow), and refuses a link on the way from the root', async () => {
    const { outside, root, folder, swap } = await swappable();
    await swap();
    await expect(openNoFollow(join(folder, 'journal'), { truncate: false, root })).rejects.toThrow(`postsync refuses to write through ${folder}: it is a symbolic link`);
    expect(await readdir(outside)).toEqual(['victim.md']);
  });

  it('where names are reached by path (no /proc/self/fd): detects the swap afterwards and says the write may have gone elsewhere', async () => {
    const { root, folder, swap } = await swappable();
    const opened = await AnchoredFolder.open(folder, { root, create: false, byPath: true });
    try {
      expect(opened.anchored).toBe(false);
      await swap();
      await expect(opened.checkHolds('keep.md', { dev: 0, ino: 0 })).rejects.toThrow('it may have gone elsewhere');
    } finally {
      await opened.close();
    }
  });

  it('where names are reached by path: refuses a link on the way when opening, and confirms a write that stayed', async () => {
    const { outside, root, folder } = await swappable();
    await symlink(outside, join(root, 'posts/linked'));
    await expect(AnchoredFolder.open(join(root, 'posts/linked'), { root, create: true, byPath: true })).rejects.toThrow('it is a symbolic link');
    const opened = await AnchoredFolder.open(join(folder, 'new/deeper'), { root, create: true, byPath: true });
    try {
      await nodeFs.writeFile(opened.at('x.md'), 'x\n');
      const { dev, ino } = await nodeFs.lstat(opened.at('x.md'));
      await opened.checkHolds('x.md', { dev, ino });
    } finally {
      await opened.close();
    }
  });
});
