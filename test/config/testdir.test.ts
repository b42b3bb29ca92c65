import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testdir } from '../helpers/testdir.js';

describe('testdir', () => {
  let created = '';

  it('creates nested files from strings and buffers', async () => {
    created = await testdir({ 'a.txt': 'hello', 'deep/er/b.bin': Buffer.from([0, 1, 2]) });
    expect(readFileSync(join(created, 'a.txt'), 'utf8')).toBe('hello');
    expect([...readFileSync(join(created, 'deep/er/b.bin'))]).toEqual([0, 1, 2]);
  });

  it('removed the previous test directory', () => {
    expect(created).not.toBe('');
    expect(existsSync(created)).toBe(false);
  });

  it('refuses paths outside the directory', async () => {
    await expect(testdir({ '../escape.txt': 'x' })).rejects.toThrow(/not a path inside/);
  });
});
