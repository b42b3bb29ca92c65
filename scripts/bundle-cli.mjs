#!/usr/bin/env node
// Bundles the CLI that `tsc` wrote to dist/cli (and the dist/src modules it imports), with the
// packages it uses, into a few files in dist/cli: main.js, plus one chunk per lazily loaded command
// or module. Every run of `postsync` loads ~70 of our modules and as many files of packages (yaml,
// commander, undici's parts); as separate modules each costs a resolve, a read and a compile of its
// own (bench/README.md, Ledger). Only Node's built-ins are imported at run time. dist/src (as tsc
// wrote it) is an input of the bundles only; the package does not ship it. Runs after `tsc` in
// `npm run build`, before the build id is written.
import { chmod, rename, rm } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import { readFile } from 'node:fs/promises';
import { rolldown } from 'rolldown';
import { inlineRequires, onLog, withoutEsprima } from './bundle-options.mjs';

const dist = new URL('../dist/', import.meta.url);
const { version } = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'));
const cli = new URL('cli/', dist);
const bundled = new URL('.cli-bundle/', dist);
const tscCli = new URL('.tsc-cli/', dist);

await rm(bundled, { recursive: true, force: true });
const bundle = await rolldown({
  // The parse pool's worker is an entry of its own: src/content/parse-pool.ts starts it from
  // `parse-worker.js` beside itself, which in the bundle is dist/cli.
  input: { main: new URL('main.js', cli).pathname, 'parse-worker': new URL('src/content/parse-worker.js', dist).pathname },
  platform: 'node',
  external: (id) => id.startsWith('node:') || builtinModules.includes(id),
  // Ajv's runtime helpers, which the generated validators require, are bundled too: the package
  // needs nothing from node_modules at run time, so it declares no dependencies.
  plugins: [inlineRequires(version), withoutEsprima()],
  logLevel: 'warn',
  onLog,
});
try {
  await bundle.write({ dir: bundled.pathname, format: 'esm', chunkFileNames: '[name]-[hash].js' });
} finally {
  await bundle.close();
}
// tsc's cli/ output moves aside to dist/.tsc-cli (not shipped): scripts/bundle-action.mjs bundles
// the Action from the unbundled modules, so that our code and the packages land in files apart.
await rm(tscCli, { recursive: true, force: true });
await rename(cli, tscCli);
await rename(bundled, cli);
// The package's bin: a new file each build, so it is made executable again (`npx postsync`).
await chmod(new URL('main.js', cli), 0o755);
