import * as fs from 'node:fs/promises';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { writeFileAtomic } from '../../src/state/atomic.js';
import { testdir } from '../helpers/testdir.js';

/** When armed, the next temp file gets half its bytes, then the disk "fills up". */
const fault = vi.hoisted(() => ({ armed: false }));

vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof fs>();
  const open: typeof real.open = async (...args) => {
    const handle = await real.open(...args);
    if (!fault.armed || !String(args[0]).endsWith('.tmp')) return handle;
    fault.armed = false;
    const writeFile = async (data: string | Uint8Array): Promise<void> => {
      await real.writeFile(String(args[0]), String(data).slice(0, Math.floor(String(data).length / 2)));
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    };
    return Object.assign(handle, { writeFile });
  };
  return { ...real, open, default: { ...real, open } };
});

describe('writeFileAtomic', () => {
  it('creates missing directories and replaces the file whole', async () => {
    const dir = await testdir({ 'a/state.json': 'old\n' });
    await writeFileAtomic(join(dir, 'a/state.json'), 'new\n');
    await writeFileAtomic(join(dir, 'b/c/state.json'), 'fresh\n');
    expect(await readFile(join(dir, 'a/state.json'), 'utf8')).toBe('new\n');
    expect(await readFile(join(dir, 'b/c/state.json'), 'utf8')).toBe('fresh\n');
    expect(await readdir(join(dir, 'a'))).toEqual(['state.json']);
  });

  it('leaves the old file whole and no temp file behind when a write fails midway', async () => {
    const dir = await testdir({ 'state.json': '{ "old": true }\n' });
    const path = join(dir, 'state.json');
    fault.armed = true;
    await expect(writeFileAtomic(path, `{ "new": "${'x'.repeat(1000)}" }\n`)).rejects.toThrow(/ENOSPC/);
    expect(fault.armed).toBe(false);
    expect(await readFile(path, 'utf8')).toBe('{ "old": true }\n');
    expect(await readdir(dir)).toEqual(['state.json']);
  });
});
