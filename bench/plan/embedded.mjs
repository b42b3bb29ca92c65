#!/usr/bin/env node
// A no-change plan on the embedded local API (no API URL: the plan starts the emulator in its own
// process on the project's .postsync/local-api/), for several builds, runs alternating: what the
// shared store (a stat before each request, the store lock, compaction only when worth it) costs
// or saves a plain `plan`. The journal is written once by `--seed-build`'s `postsync serve --data`
// (an older build cannot read a newer journal), then each variant plans its own copy.
// Usage: node bench/plan/embedded.mjs --variant before=bench/.tmp/before --variant after=. \
//          [--seed-build before] [--posts 10000] [--runs 5]
// Progress on stderr; the last stdout line is the results as JSON.
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { runMeasured } from '../lib/measure.mjs';
import { root } from '../lib/paths.mjs';
import { seedRemote, writeProject } from '../lib/project.mjs';
import { startServe } from '../lib/serve.mjs';
import { loadAverage, note, round, summary } from '../lib/stats.mjs';

const { values: flags } = parseArgs({
  options: { variant: { type: 'string', multiple: true }, 'seed-build': { type: 'string' }, posts: { type: 'string', default: '10000' }, runs: { type: 'string', default: '5' } },
});
const variants = (flags.variant ?? []).map((spec) => {
  const [name, dir] = spec.split(/=(.*)/s);
  return { name, bin: join(resolve(root, dir), 'dist/cli/main.js') };
});
if (variants.length === 0) throw new Error('give at least one --variant name=DIR');
const seeder = variants.find((variant) => variant.name === (flags['seed-build'] ?? variants[0].name));
if (!seeder) throw new Error(`--seed-build names no variant: ${flags['seed-build']}`);
const POSTS = Number(flags.posts);
const RUNS = Number(flags.runs);

const workDir = await mkdtemp(join(tmpdir(), 'postsync-bench-embedded-'));
try {
  const source = join(workDir, 'source');
  await writeProject(source, { posts: POSTS });
  const server = await startServe({ dir: workDir, command: [seeder.bin, 'serve'], args: ['--data', join(source, '.postsync/local-api')] });
  try {
    await seedRemote(source, { baseUrl: server.baseUrl, local: true });
  } finally {
    await server.stop();
  }
  for (const variant of variants) {
    variant.dir = join(workDir, variant.name);
    await cp(source, variant.dir, { recursive: true });
  }
  // Files changed in the last 2 s are never trusted by their stamp alone (see bench/plan/run.mjs).
  await new Promise((done) => setTimeout(done, 2100));
  const plan = (variant) => runMeasured([variant.bin, '-C', variant.dir, 'plan', '--detailed-exitcode'], { env: { POSTSYNC_API_URL: '', POSTSYNC_API_KEY: '' } });
  for (const variant of variants) {
    const first = await plan(variant);
    if (!/No changes/.test(first.stdout)) throw new Error(`${variant.name}: the plan is not a no-op:\n${first.stdout.slice(-1500)}`);
    variant.warm = [];
  }
  for (let run = 0; run < RUNS; run++) {
    for (const variant of variants) variant.warm.push(await plan(variant));
    note(`round ${run + 1}/${RUNS}: ${variants.map((v) => `${v.name} ${Math.round(v.warm.at(-1).ms)} ms (CPU ${Math.round(v.warm.at(-1).cpuMs)} ms)`).join(', ')}; load ${loadAverage().join(' ')}`);
  }
  const results = variants.map((variant) => ({
    name: variant.name,
    warmMs: summary(variant.warm.map((r) => r.ms)),
    warmCpuMs: summary(variant.warm.map((r) => r.cpuMs)),
    warmPeakRssMiB: summary(variant.warm.map((r) => r.peakRssMiB), 1),
  }));
  for (const result of results) {
    note(`${result.name}: warm ${result.warmMs.median} ms (CPU ${result.warmCpuMs.median} ms); vs ${results[0].name}: ${round(result.warmMs.median / results[0].warmMs.median, 3)} wall, ${round(result.warmCpuMs.median / results[0].warmCpuMs.median, 3)} CPU`);
  }
  process.stdout.write(`${JSON.stringify({ posts: POSTS, runs: RUNS, results, loadAverage: loadAverage() })}\n`);
} finally {
  await rm(workDir, { recursive: true, force: true });
}
