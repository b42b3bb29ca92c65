#!/usr/bin/env node
// Apply scaling: `postsync apply --yes` of N new posts (1,000, 4,000 and 10,000 by default) against
// a fresh emulator process with no rate limit, from no state. Reported per size: the API requests
// (from the emulator's request log), wall and CPU time, time per created post, peak RSS; and the
// ratio of each size's time per post to the smallest size's (the target: ≤ 1.3 at 10,000).
// Usage: npm run build && node bench/apply/scaling.mjs [--sizes 1000,4000,10000] [--runs 1] [--profile]
//   --profile  one extra run at the largest size under `node --cpu-prof`; prints its top frames.
// Progress on stderr; the last stdout line is the results as JSON.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { runMeasured } from '../lib/measure.mjs';
import { bin } from '../lib/paths.mjs';
import { topFrames } from '../lib/profile.mjs';
import { DEMO_API_KEY, writeProject } from '../lib/project.mjs';
import { startServe } from '../lib/serve.mjs';
import { loadAverage, median, note, round, summary } from '../lib/stats.mjs';

const { values: flags } = parseArgs({ options: { sizes: { type: 'string', default: '1000,4000,10000' }, runs: { type: 'string', default: '1' }, profile: { type: 'boolean', default: false } } });
const SIZES = flags.sizes.split(',').map(Number);
const RUNS = Number(flags.runs);

async function oneRun(workDir, posts, run, { nodeArgs = [] } = {}) {
  const dir = join(workDir, `project-${posts}-${run}`);
  await writeProject(dir, { posts, variant: `scale${run}` });
  const server = await startServe({ dir: workDir });
  try {
    const measured = await runMeasured([bin, '-C', dir, '--api-url', server.baseUrl, 'apply', '--yes'], { env: { POSTSYNC_API_KEY: DEMO_API_KEY }, nodeArgs });
    const api = (await server.requests()).filter((entry) => entry.path.startsWith('/public/v1'));
    const created = api.filter((entry) => entry.method === 'POST' && entry.path === '/public/v1/posts' && entry.status === 201).length;
    if (created !== posts) throw new Error(`apply created ${created} posts, expected ${posts}`);
    const leftovers = (await readdir(join(dir, '.postsync'))).filter((name) => name !== 'state.json' && name !== 'cache');
    if (leftovers.length > 0) throw new Error(`apply left ${leftovers.join(', ')} beside the state`);
    const result = { ms: measured.ms, cpuMs: measured.cpuMs, peakRssMiB: measured.peakRssMiB, apiRequests: api.length, msPerPost: measured.ms / posts };
    note(`${posts} posts, run ${run + 1}: ${round(result.ms / 1000, 1)} s (${round(result.msPerPost, 2)} ms per post, CPU ${round(result.cpuMs / 1000, 1)} s), ${result.apiRequests} requests, peak RSS ${round(result.peakRssMiB)} MiB; load ${loadAverage().join(' ')}`);
    return result;
  } finally {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

const workDir = await mkdtemp(join(tmpdir(), 'postsync-bench-apply-scaling-'));
try {
  const sizes = [];
  for (const posts of SIZES) {
    const runs = [];
    for (let run = 0; run < RUNS; run++) runs.push(await oneRun(workDir, posts, run));
    sizes.push({
      posts,
      ms: summary(runs.map((r) => r.ms)),
      cpuMs: summary(runs.map((r) => r.cpuMs)),
      msPerPost: summary(runs.map((r) => r.msPerPost), 3),
      peakRssMiB: summary(runs.map((r) => r.peakRssMiB), 1),
      apiRequests: median(runs.map((r) => r.apiRequests)),
    });
  }
  const base = sizes[0];
  sizes.forEach((size, i) => {
    size.perPostRatio = round(size.msPerPost.median / base.msPerPost.median, 2);
    size.cpuPerPostRatio = round(size.cpuMs.median / size.posts / (base.cpuMs.median / base.posts), 2);
    // What each post past the previous size cost: free of the fixed cost of a run (start, reading, planning).
    const previous = sizes[i - 1];
    if (previous) {
      size.marginalMsPerPost = round((size.ms.median - previous.ms.median) / (size.posts - previous.posts), 3);
      size.marginalCpuMsPerPost = round((size.cpuMs.median - previous.cpuMs.median) / (size.posts - previous.posts), 3);
    }
  });
  let profile;
  if (flags.profile) {
    const profileDir = join(workDir, 'profile');
    const posts = SIZES[SIZES.length - 1];
    await oneRun(workDir, posts, RUNS, { nodeArgs: ['--cpu-prof', '--cpu-prof-dir', profileDir] });
    profile = { posts, topFrames: await topFrames(profileDir, 15) };
    note(`CPU profile of apply at ${posts} posts, top frames by self time:`);
    for (const frame of profile.topFrames) note(`  ${JSON.stringify(frame)}`);
  }
  process.stdout.write(`${JSON.stringify({ sizes, profile, loadAverage: loadAverage() })}\n`);
} finally {
  await rm(workDir, { recursive: true, force: true });
}
