// Where the benchmarks find the built CLI and modules. Benchmarks run against dist/ (npm run build).
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The repository (bench scripts, bench/.tmp). */
export const root = fileURLToPath(new URL('../..', import.meta.url));
/**
 * The build under test: a folder holding dist/, package.json, schemas/ and node_modules/. Default:
 * the repository. BENCH_BUILD points at a private copy, so a rebuild of dist/ by someone else in
 * the middle of a run cannot mix two builds (see bench/README.md).
 */
export const buildRoot = process.env.BENCH_BUILD ? resolve(process.env.BENCH_BUILD) : root;
export const bin = join(buildRoot, 'dist/cli/main.js');
/** Preloaded with --import into measured processes: writes their peak RSS on exit. */
export const peakRssPreload = join(root, 'bench/lib/peak-rss.mjs');

/** Imports a built module, e.g. fromDist('src/api/index.js'). */
export function fromDist(path) {
  const file = join(buildRoot, 'dist', path);
  if (!existsSync(file)) throw new Error(`${file} is missing: run \`npm run build\` first`);
  return import(pathToFileURL(file).href);
}

/**
 * The media generators of the tests (test/helpers/media-generators: solid-colour images, MP4s),
 * imported from their TypeScript sources (scripts/register-ts.mjs): they are not part of the build.
 */
export async function mediaGenerators() {
  await import('../../scripts/register-ts.mjs');
  return import('../../test/helpers/media-generators/index.ts');
}

/** Imports a module of this repository's own build (dist/), whatever BENCH_BUILD says: for what a benchmark sets up rather than measures. */
export function fromRepoDist(path) {
  const file = join(root, 'dist', path);
  if (!existsSync(file)) throw new Error(`${file} is missing: run \`npm run build\` first`);
  return import(pathToFileURL(file).href);
}
