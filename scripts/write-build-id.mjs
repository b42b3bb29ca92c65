#!/usr/bin/env node
// Writes dist/build-id.json: a digest of everything the build emitted. postsync keeps cached
// readings of post files and media (.postsync/cache) only for the build that made them, so a
// rebuilt postsync never reuses what older code worked out. Runs after `tsc` in `npm run build`.
import { createHash } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';

const dist = new URL('../dist/', import.meta.url).pathname;
const entries = await readdir(dist, { recursive: true, withFileTypes: true });
const files = entries
  .filter((entry) => entry.isFile() && /\.(js|json)$/.test(entry.name) && entry.name !== 'build-id.json')
  .map((entry) => join(entry.parentPath ?? entry.path, entry.name))
  .sort();
const digest = createHash('sha256');
for (const file of files) digest.update(`${relative(dist, file)}\0`).update(await readFile(file)).update('\0');
await writeFile(join(dist, 'build-id.json'), `${JSON.stringify({ id: digest.digest('hex').slice(0, 32), files: files.length })}\n`);
