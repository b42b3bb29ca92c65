#!/usr/bin/env node
// Compares no-change plans of several builds (or settings) on one project, runs alternating, so a
// busy machine weighs on every variant alike: before/after a change, or a cache layer on and off.
// One project of --posts posts is written and seeded once; each variant plans its own copy (each
// build keeps its own .postsync/cache), warmed up once, then every round runs each variant warm
// and, with --cold, with --no-cache. --video-mb makes the shared video that large (a sparse file),
// as a project with real videos has.
// Usage: node bench/plan/compare.mjs --variant before=bench/.tmp/before --variant after=. \
//          [--variant name=DIR?ENV=value&ENV2=value] [--posts 10000] [--runs 5] [--cold] [--video-mb N]
// DIR holds dist/ (and package.json, node_modules beside it); the emulator and the seeding use this
// repository's dist/. Progress on stderr; the last stdout line is the results as JSON.
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { runMeasured } from '../lib/measure.mjs';
import { root } from '../lib/paths.mjs';
import { DEMO_API_KEY, seedRemote, writeProject } from '../lib/project.mjs';
import { startServe } from '../lib/serve.mjs';
import { loadAverage, note, round, summary } from '../lib/stats.mjs';

const { values: flags } = parseArgs({
  options: { variant: { type: 'string', multiple: true }, posts: { type: 'string', default: '10000' }, runs: { type: 'string', default: '5' }, cold: { type: 'boolean', default: false }, 'video-mb': { type: 'string' } },
});
const variants = (flags.variant ?? []).map((spec) => {
  const [name, rest] = spec.split(/=(.*)/s);
  const [dir, query = ''] = rest.split('?');
  return { name, bin: join(resolve(root, dir), 'dist/cli/main.js'), env: Object.fromEntries(new URLSearchParams(query)) };
});
if (variants.length === 0) throw new Error('give at least one --variant name=DIR');
const POSTS = Number(flags.posts);
const RUNS = Number(flags.runs);

const workDir = await mkdtemp(join(tmpdir(), 'postsync-bench-compare-'));
const server = await startServe({ dir: workDir, command: [join(root, 'dist/cli/main.js'), 'serve'] });
try {
  const source = join(workDir, 'source');
  await writeProject(source, { posts: POSTS, ...(flags['video-mb'] === undefined ? {} : { videoBytes: Number(flags['video-mb']) * 1024 * 1024 }) });
  await seedRemote(source, { baseUrl: server.baseUrl });
  for (const variant of variants) {
    variant.dir = join(workDir, variant.name);
    await cp(source, variant.dir, { recursive: true });
  }
  // Files changed in the last 2 s are never trusted by their stamp alone (see bench/plan/run.mjs).
  await new Promise((done) => setTimeout(done, 2100));
  const plan = (variant, extra = []) =>
    runMeasured([variant.bin, '-C', variant.dir, '--api-url', server.baseUrl, ...extra, 'plan', '--detailed-exitcode'], { env: { POSTSYNC_API_KEY: DEMO_API_KEY, ...variant.env } });
  for (const variant of variants) {
    const first = await plan(variant);
    if (!/No changes/.test(first.stdout)) throw new Error(`${variant.name}: the plan is not a no-op:\n${first.stdout.slice(-1500)}`);
    variant.warm = [];
    variant.cold = [];
  }
  for (let run = 0; run < RUNS; run++) {
    for (const variant of variants) {
      variant.warm.push(await plan(variant));
      if (flags.cold) variant.cold.push(await plan(variant, ['--no-cache']));
    }
    note(`round ${run + 1}/${RUNS}: ${variants.map((v) => `${v.name} ${Math.round(v.warm.at(-1).ms)} ms${flags.cold ? ` (cold ${Math.round(v.cold.at(-1).ms)} ms)` : ''}`).join(', ')}; load ${loadAverage().join(' ')}`);
  }
  const results = variants.map((variant) => ({
    name: variant.name,
    env: variant.env,
    warmMs: summary(variant.warm.map((r) => r.ms)),
    warmCpuMs: summary(variant.warm.map((r) => r.cpuMs)),
    warmPeakRssMiB: summary(variant.warm.map((r) => r.peakRssMiB), 1),
    ...(flags.cold ? { coldMs: summary(variant.cold.map((r) => r.ms)), coldCpuMs: summary(variant.cold.map((r) => r.cpuMs)) } : {}),
  }));
  for (const result of results) {
    note(`${result.name}: warm ${result.warmMs.median} ms (CPU ${result.warmCpuMs.median} ms)${flags.cold ? `, cold ${result.coldMs.median} ms (CPU ${result.coldCpuMs.median} ms)` : ''}; vs ${results[0].name}: ${round(result.warmMs.median / results[0].warmMs.median, 3)} wall, ${round(result.warmCpuMs.median / results[0].warmCpuMs.median, 3)} CPU`);
  }
  process.stdout.write(`${JSON.stringify({ posts: POSTS, runs: RUNS, results, loadAverage: loadAverage() })}\n`);
} finally {
  await server.stop();
  await rm(workDir, { recursive: true, force: true });
}
