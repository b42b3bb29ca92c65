import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const TEST_ROOT = new URL('..', import.meta.url).pathname;

/**
 * Test files share their worker's modules (vitest.config.ts: `isolate: false`), so a file that
 * replaces a module with `vi.mock` would hand its stand-in to every file after it in that worker.
 * Such a file is named `*.mocked.test.ts`, which runs it with a module graph of its own.
 */
describe('test files that replace a module', () => {
  it('are named *.mocked.test.ts', async () => {
    const entries = await readdir(TEST_ROOT, { recursive: true, withFileTypes: true });
    const files = entries.filter((entry) => entry.isFile() && entry.name.endsWith('.test.ts')).map((entry) => join(entry.parentPath, entry.name));
    const misnamed: string[] = [];
    for (const file of files) {
      const text = await readFile(file, 'utf8');
      if (/\bvi\.(?:mock|doMock)\(/.test(text) && !file.endsWith('.mocked.test.ts')) misnamed.push(relative(TEST_ROOT, file));
    }
    expect(misnamed).toEqual([]);
  });
});
