#!/usr/bin/env node
// The package.json that `npm pack` and `npm publish` put in the tarball has no `prepare` script.
// `prepare` is what makes `npm ci` in this repository build dist/ as well as install (the README's
// contract), and npm runs it for the project it installs in, never for a package installed from a
// tarball or the registry; yet npm 11 warns about it on every install of the package (`npm warn
// install-scripts … (prepare: npm run build)`). So `prepack` (after the build) sets it aside here
// and `postpack` puts it back: the repository keeps it, the tarball does not have it, and
// installing the tarball runs no script. test/package/tarball.test.ts checks the tarball.
// Usage: node scripts/pack-manifest.mjs strip|restore
import { readFile, rm, writeFile } from 'node:fs/promises';

const manifest = new URL('../package.json', import.meta.url);
const kept = new URL('../.package.json.packing', import.meta.url);
const step = process.argv[2];

if (step === 'strip') {
  const text = await readFile(manifest, 'utf8');
  await writeFile(kept, text);
  const json = JSON.parse(text);
  delete json.scripts.prepare;
  await writeFile(manifest, `${JSON.stringify(json, null, 2)}\n`);
} else if (step === 'restore') {
  const text = await readFile(kept, 'utf8').catch(() => null);
  if (text !== null) {
    await writeFile(manifest, text);
    await rm(kept);
  }
} else {
  process.stderr.write('usage: node scripts/pack-manifest.mjs strip|restore\n');
  process.exit(2);
}
