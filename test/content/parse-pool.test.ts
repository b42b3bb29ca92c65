import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { interpretPostFile, type InterpretContext } from '../../src/content/interpret-file.js';
import { ParsePool } from '../../src/content/parse-pool.js';
import type { DataPath } from '../../src/text/yaml-source.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Every post file of the examples and of the bad-input corpus: valid ones, and each way a file can be wrong. */
function postFiles(): { file: string; bytes: Buffer }[] {
  const found: { file: string; bytes: Buffer }[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.md') && entry.name !== 'README.md') found.push({ file: relative(ROOT, path).split(sep).join('/'), bytes: readFileSync(path) });
    }
  };
  walk(join(ROOT, 'examples/posts'));
  walk(join(ROOT, 'test/fixtures/bad'));
  return found;
}

/** Paths to ask `locate` about: every value of the front-matter, and some that are not there. */
function pathsOf(value: unknown, prefix: DataPath = []): DataPath[] {
  const paths: DataPath[] = [prefix, [...prefix, 'missing'], [...prefix, 7]];
  if (Array.isArray(value)) value.forEach((item, index) => paths.push(...pathsOf(item, [...prefix, index])));
  else if (typeof value === 'object' && value !== null) for (const [key, item] of Object.entries(value)) paths.push(...pathsOf(item, [...prefix, key]));
  return paths;
}

const pool = ParsePool.start({ entry: new URL('../../src/content/parse-worker.ts', import.meta.url), workers: 2, execArgv: ['--import', join(ROOT, 'scripts/register-ts.mjs')] });
afterAll(() => pool.close());

describe('ParsePool', () => {
  it('gives every post file the reading and the positions this thread gives it (media entries from the worker, any other path parsed again here), each to its own caller', async () => {
    const files = postFiles();
    expect(files.length).toBeGreaterThan(50);
    const context = (file: string): InterpretContext => ({ file, fileInContent: file, timezone: 'Europe/Berlin', accounts: { photo: '6f1c2d6e-0a55-4c59-9d0f-3b8f5d1a7e01', video: '1a2b3c4d-0a55-4c59-9d0f-3b8f5d1a7e02' } });
    // All at once, so batches go to both workers and come back in any order.
    const pooled = await Promise.all(files.map(({ file, bytes }) => pool.interpret(bytes, context(file))));
    files.forEach(({ file, bytes }, index) => {
      const here = interpretPostFile(bytes, context(file));
      const there = pooled[index]!;
      expect(there.reading, file).toEqual(here.reading);
      // Without a text the reader stops at the reading: nothing asks it for a position.
      if (here.reading.text === undefined) return;
      for (const path of pathsOf(here.reading.text.frontMatter)) {
        for (const key of [false, true]) expect(there.locate(path, { key }), `${file} ${JSON.stringify(path)}`).toEqual(here.locate(path, { key }));
      }
    });
  });

  it('rejects the files still out when it is closed, and any asked after, and can be closed twice', async () => {
    const other = ParsePool.start({ entry: new URL('../../src/content/parse-worker.ts', import.meta.url), workers: 1, execArgv: ['--import', join(ROOT, 'scripts/register-ts.mjs')] });
    const pending = other.interpret(Buffer.from('---\nid: a\n---\nText\n'), { file: 'a.md', fileInContent: 'a.md', timezone: 'UTC', accounts: {} });
    const rejected = expect(pending).rejects.toThrow('closed');
    await other.close();
    await rejected;
    await expect(other.interpret(Buffer.from('---\nid: b\n---\nText\n'), { file: 'b.md', fileInContent: 'b.md', timezone: 'UTC', accounts: {} })).rejects.toThrow('closed');
    await other.close();
  });
});
