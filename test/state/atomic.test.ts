import { readlinkSync } from 'node:fs';
import * as nodeFs from 'node:fs/promises';
import { readFile, readdir, readlink, rm, symlink } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { createFileExclusive, writeFileAtomic, type AtomicFileSystem } from '../../src/state/atomic.js';
import { testdir } from '../helpers/testdir.js';

type Op = 'open' | 'write' | 'sync' | 'close' | 'rename' | 'link' | 'unlink';

/** One file system call: the operation and the names it touched (temp files shown as `<temp>`). */
interface Call {
  op: Op;
  names: string[];
}

/** A failure for a call, or undefined to let it through. */
type Fault = (call: Call) => NodeJS.ErrnoException | undefined;

function errno(code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: injected`), { code });
}

/** A path's last name; `/proc/self/fd/N` (a folder reached through its open descriptor) by the folder's own name. */
function nameOf(path: string): string {
  if (path.endsWith('.tmp')) return '<temp>';
  const descriptor = /^\/proc\/self\/fd\/\d+$/.exec(path);
  return basename(descriptor === null ? path : readlinkSync(path));
}

/**
 * Node's file system, recording every call an atomic write makes, and failing those `fault`
 * picks. A failed call does not happen (a failed write first writes half its text, as a full disk would).
 */
function recordingFs(fault: Fault = () => undefined): { fs: AtomicFileSystem; calls: Call[] } {
  const calls: Call[] = [];
  const check = (op: Op, ...paths: unknown[]) => {
    const call = { op, names: paths.map((path) => nameOf(String(path))) };
    calls.push(call);
    const error = fault(call);
    if (error) throw error;
  };
  const fs: AtomicFileSystem = {
    rename: async (from, to) => (check('rename', from, to), nodeFs.rename(from, to)),
    link: async (from, to) => (check('link', from, to), nodeFs.link(from, to)),
    unlink: async (path) => (check('unlink', path), nodeFs.unlink(path)),
    open: (async (path: string, flags: string, mode?: number) => {
      check('open', path);
      const handle = await nodeFs.open(path, flags, mode);
      const { writeFile, sync, close } = handle;
      return Object.assign(handle, {
        writeFile: async (data: string) => {
          const error = fault({ op: 'write', names: [nameOf(path)] });
          calls.push({ op: 'write', names: [nameOf(path)] });
          if (error) {
            await writeFile.call(handle, data.slice(0, data.length / 2));
            throw error;
          }
          return writeFile.call(handle, data);
        },
        sync: async () => (check('sync', path), sync.call(handle)),
        close: async () => (calls.push({ op: 'close', names: [nameOf(path)] }), close.call(handle)),
      });
    }) as typeof nodeFs.open,
  };
  return { fs, calls };
}

const failOn = (op: Op, name: string, code: string): Fault => (call) => (call.op === op && call.names[0] === name ? errno(code) : undefined);

async function stateFile(old = '{ "old": true }\n') {
  const dir = await testdir({ 'state.json': old });
  return { dir, path: join(dir, 'state.json') };
}

describe('writeFileAtomic', () => {
  it('creates missing directories and replaces the file whole', async () => {
    const dir = await testdir({ 'a/state.json': 'old\n' });
    await writeFileAtomic(join(dir, 'a/state.json'), 'new\n');
    await writeFileAtomic(join(dir, 'b/c/state.json'), 'fresh\n');
    expect(await readFile(join(dir, 'a/state.json'), 'utf8')).toBe('new\n');
    expect(await readFile(join(dir, 'b/c/state.json'), 'utf8')).toBe('fresh\n');
    expect(await readdir(join(dir, 'a'))).toEqual(['state.json']);
  });

  it('fsyncs the temp file before renaming it into place, then fsyncs the directory so the rename is durable', async () => {
    const { dir, path } = await stateFile();
    const { fs, calls } = recordingFs();
    await writeFileAtomic(path, 'new\n', { fs });
    const folder = basename(dir);
    expect(calls.map((call) => `${call.op} ${call.names.join(' → ')}`)).toEqual([
      'open <temp>',
      'write <temp>',
      'sync <temp>',
      'close <temp>',
      'rename <temp> → state.json',
      `open ${folder}`,
      `sync ${folder}`,
      `close ${folder}`,
    ]);
    expect(await readFile(path, 'utf8')).toBe('new\n');
  });

  it('makes missing folders, and again when they were removed meanwhile', async () => {
    const dir = await testdir();
    const path = join(dir, 'deep/nested/state.json');
    await writeFileAtomic(path, 'one\n', { root: dir });
    await rm(join(dir, 'deep'), { recursive: true });
    await writeFileAtomic(path, 'two\n', { root: dir });
    expect(await readFile(path, 'utf8')).toBe('two\n');
  });

  it('surfaces an open failure other than a missing folder at once, without retrying', async () => {
    const { dir, path } = await stateFile();
    const { fs, calls } = recordingFs(failOn('open', '<temp>', 'EMFILE'));
    await expect(writeFileAtomic(path, 'new\n', { fs })).rejects.toThrow(/EMFILE/);
    expect(calls.filter((call) => call.op === 'open')).toHaveLength(1);
    // The temp name it could not create may be another writer's: it is left alone.
    expect(calls.filter((call) => call.op === 'unlink')).toEqual([]);
    expect(await readdir(dir)).toEqual(['state.json']);
  });

  it('says the folder was removed meanwhile when the temp file cannot be made in it', async () => {
    const { dir, path } = await stateFile();
    const { fs, calls } = recordingFs(failOn('open', '<temp>', 'ENOENT'));
    const error = await writeFileAtomic(path, 'new\n', { fs }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).message).toBe(`the folder ${dir} was removed while postsync wrote state.json in it`);
    expect((error as InputError).hint).toBe('Something else changes this folder: run it again.');
    expect(calls.filter((call) => call.op === 'unlink')).toEqual([]);
  });

  it('refuses to replace a symbolic link at the path, leaving the link and its target as they were', async () => {
    const { dir, path } = await stateFile();
    await symlink(path, join(dir, 'linked.json'));
    await expect(writeFileAtomic(join(dir, 'linked.json'), 'new\n')).rejects.toThrow(`postsync refuses to write through ${join(dir, 'linked.json')}: it is a symbolic link`);
    expect(await readlink(join(dir, 'linked.json'))).toBe(path);
    expect(await readFile(path, 'utf8')).toBe('{ "old": true }\n');
    expect((await readdir(dir)).sort()).toEqual(['linked.json', 'state.json']);
  });

  it.each([
    ['a write that fills the disk midway', failOn('write', '<temp>', 'ENOSPC'), /ENOSPC/],
    ['an fsync of the temp file', failOn('sync', '<temp>', 'EIO'), /EIO/],
    ['the rename', failOn('rename', '<temp>', 'EXDEV'), /EXDEV/],
  ])('surfaces a failure of %s, leaving the old file whole and no temp file behind', async (_, fault, message) => {
    const { dir, path } = await stateFile();
    const { fs } = recordingFs(fault);
    await expect(writeFileAtomic(path, `{ "new": "${'x'.repeat(1000)}" }\n`, { fs })).rejects.toThrow(message);
    expect(await readFile(path, 'utf8')).toBe('{ "old": true }\n');
    expect(await readdir(dir)).toEqual(['state.json']);
  });

  it('replaces nothing when `stillCurrent` says the file changed since it was read, and leaves no temp file', async () => {
    const { dir, path } = await stateFile();
    const asked: string[] = [];
    const stillCurrent = async () => (asked.push(await readFile(path, 'utf8')), false);
    expect(await writeFileAtomic(path, 'new\n', { stillCurrent })).toBe(false);
    expect(asked).toEqual(['{ "old": true }\n']);
    expect(await readFile(path, 'utf8')).toBe('{ "old": true }\n');
    expect(await readdir(dir)).toEqual(['state.json']);
    expect(await writeFileAtomic(path, 'new\n', { stillCurrent: async () => true })).toBe(true);
    expect(await readFile(path, 'utf8')).toBe('new\n');
  });

  it('surfaces a failed fsync of the directory: the rename may not be durable', async () => {
    const { dir, path } = await stateFile();
    const { fs } = recordingFs(failOn('sync', basename(dir), 'EIO'));
    await expect(writeFileAtomic(path, 'new\n', { fs })).rejects.toThrow(/EIO/);
    expect(await readdir(dir)).toEqual(['state.json']);
  });

  it.each(['EISDIR', 'EPERM', 'EACCES', 'EINVAL', 'EBADF', 'ENOTSUP'])(
    'goes on when the platform cannot fsync a directory (%s)',
    async (code) => {
      const { dir, path } = await stateFile();
      for (const op of ['open', 'sync'] as const) {
        const { fs } = recordingFs(failOn(op, basename(dir), code));
        await writeFileAtomic(path, `after ${op}\n`, { fs });
        expect(await readFile(path, 'utf8')).toBe(`after ${op}\n`);
      }
    },
  );
});

describe('createFileExclusive', () => {
  it('links a synced temp file into place, syncs the directory, and removes the temp name', async () => {
    const dir = await testdir();
    const { fs, calls } = recordingFs();
    expect(await createFileExclusive(join(dir, 'state.json.lock'), 'mine\n', { fs })).toBe(true);
    const folder = basename(dir);
    expect(calls.map((call) => `${call.op} ${call.names.join(' → ')}`)).toEqual([
      'open <temp>',
      'write <temp>',
      'sync <temp>',
      'close <temp>',
      'link <temp> → state.json.lock',
      'unlink <temp>',
      `open ${folder}`,
      `sync ${folder}`,
      `close ${folder}`,
    ]);
    expect(await readFile(join(dir, 'state.json.lock'), 'utf8')).toBe('mine\n');
    expect(await readdir(dir)).toEqual(['state.json.lock']);
  });

  it('returns false when the name is taken, keeping what is there and leaving no temp file', async () => {
    const dir = await testdir({ 'state.json.lock': 'theirs\n' });
    expect(await createFileExclusive(join(dir, 'state.json.lock'), 'mine\n')).toBe(false);
    expect(await readFile(join(dir, 'state.json.lock'), 'utf8')).toBe('theirs\n');
    expect(await readdir(dir)).toEqual(['state.json.lock']);
  });

  it('surfaces any other link failure, leaving no temp file', async () => {
    const dir = await testdir();
    const { fs } = recordingFs(failOn('link', '<temp>', 'EPERM'));
    await expect(createFileExclusive(join(dir, 'state.json.lock'), 'mine\n', { fs })).rejects.toThrow(/EPERM/);
    expect(await readdir(dir)).toEqual([]);
  });

  it('surfaces a failed fsync of the new file', async () => {
    const dir = await testdir();
    const { fs } = recordingFs(failOn('sync', '<temp>', 'EIO'));
    await expect(createFileExclusive(join(dir, 'state.json.lock'), 'mine\n', { fs })).rejects.toThrow(/EIO/);
    expect(await readdir(dir)).toEqual([]);
  });
});
