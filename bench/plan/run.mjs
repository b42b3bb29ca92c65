#!/usr/bin/env node
// Plan benchmark: a no-change `postsync plan` at 1,000 and 10,000 posts (files on disk, the same
// posts remote, state present) next to the floor (bench/plan/floor.mjs), the requests plan makes,
// and a no-op `apply --yes` at the largest size (writes must be 0). `plan` is measured as a user
// runs it again and again (.postsync/cache filled by the warm-up run) and cold (`--no-cache`: every
// file parsed and every media file hashed, as on a fresh CI checkout).
// The emulator runs as its own `postsync serve` process; plan runs and floor runs alternate.
// The cold plan is held to a floor that also parses every front-matter (`floor.mjs --yaml`).
// Usage: npm run build && node bench/plan/run.mjs [--runs 5] [--sizes 1000,10000] [--profile]
// Progress on stderr; the last stdout line is the results as JSON.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { runMeasured } from '../lib/measure.mjs';
import { bin, root } from '../lib/paths.mjs';
import { topFrames } from '../lib/profile.mjs';
import { DEMO_API_KEY, seedRemote, writeProject } from '../lib/project.mjs';
import { isWrite, startServe } from '../lib/serve.mjs';
import { loadAverage, note, round, summary } from '../lib/stats.mjs';

const { values: flags } = parseArgs({ options: { runs: { type: 'string', default: '5' }, sizes: { type: 'string', default: '1000,10000' }, profile: { type: 'boolean', default: false } } });
const RUNS = Number(flags.runs);
const SIZES = flags.sizes.split(',').map(Number);
const env = { POSTSYNC_API_KEY: DEMO_API_KEY };

/** Counts logged requests by "METHOD /path" with ids folded, e.g. "GET /accounts/:id/capabilities". */
function byRoute(entries) {
  const counts = {};
  for (const { method, path } of entries) {
    const route = `${method} ${path.replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, ':id')}`;
    counts[route] = (counts[route] ?? 0) + 1;
  }
  return counts;
}

async function benchSize(posts, workDir) {
  const dir = join(workDir, `project-${posts}`);
  const started = performance.now();
  await writeProject(dir, { posts });
  const written = Date.now();
  const server = await startServe({ dir: workDir });
  try {
    const seeded = await seedRemote(dir, { baseUrl: server.baseUrl });
    note(`${posts} posts: project written and seeded remotely (${seeded.media} media files) in ${round((performance.now() - started) / 1000, 1)} s`);
    const plan = (extra = []) => runMeasured([bin, '-C', dir, '--api-url', server.baseUrl, 'plan', '--detailed-exitcode', ...extra], { env });
    const floor = (extra = []) => runMeasured([join(root, 'bench/plan/floor.mjs'), dir, server.baseUrl, DEMO_API_KEY, ...extra]);

    // Warm-up (file cache, emulator JIT, .postsync/cache); exit 0 with --detailed-exitcode proves a
    // no-change plan. Files changed in the last 2 s are never trusted by their stamp alone, so the
    // warm-up waits until the files are that old, like any repository not edited this instant.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, written + 2100 - Date.now())));
    const first = await plan();
    if (!/No changes/.test(first.stdout)) throw new Error(`the plan is not a no-op:\n${first.stdout.slice(-1500)}`);
    for (const extra of [[], ['--both-ends'], ['--yaml']]) {
      const floorCheck = JSON.parse((await floor(extra)).stdout);
      if (floorCheck.posts !== posts || floorCheck.files !== posts) throw new Error(`floor ${extra.join(' ')} saw ${JSON.stringify(floorCheck)}, expected ${posts} posts`);
    }

    const planRuns = [];
    const floorRuns = [];
    const coldRuns = [];
    const bothEndsFloorRuns = [];
    const yamlFloorRuns = [];
    for (let run = 0; run < RUNS; run++) {
      planRuns.push(await plan());
      floorRuns.push(await floor());
      coldRuns.push(await plan(['--no-cache']));
      yamlFloorRuns.push(await floor(['--yaml']));
      bothEndsFloorRuns.push(await floor(['--both-ends']));
    }
    await server.clearRequests();
    await plan();
    const requests = await server.requests();
    const pages = requests.filter((entry) => entry.method === 'GET' && entry.path.endsWith('/posts')).length;

    const result = {
      posts,
      planMs: summary(planRuns.map((r) => r.ms)),
      planCpuMs: summary(planRuns.map((r) => r.cpuMs)),
      planPeakRssMiB: summary(planRuns.map((r) => r.peakRssMiB), 1),
      planColdMs: summary(coldRuns.map((r) => r.ms)),
      planColdCpuMs: summary(coldRuns.map((r) => r.cpuMs)),
      planColdPeakRssMiB: summary(coldRuns.map((r) => r.peakRssMiB), 1),
      floorMs: summary(floorRuns.map((r) => r.ms)),
      floorCpuMs: summary(floorRuns.map((r) => r.cpuMs)),
      floorPeakRssMiB: summary(floorRuns.map((r) => r.peakRssMiB), 1),
      floorBothEndsMs: summary(bothEndsFloorRuns.map((r) => r.ms)),
      floorYamlMs: summary(yamlFloorRuns.map((r) => r.ms)),
      floorYamlCpuMs: summary(yamlFloorRuns.map((r) => r.cpuMs)),
      requests: { total: requests.length, listPages: pages, other: requests.length - pages, byRoute: byRoute(requests) },
      loadAverage: loadAverage(),
    };
    result.planOverFloor = round(result.planMs.median / result.floorMs.median, 2);
    result.planOverFloorCpu = round(result.planCpuMs.median / result.floorCpuMs.median, 2);
    result.planOverFloorBothEnds = round(result.planMs.median / result.floorBothEndsMs.median, 2);
    result.coldOverFloorYaml = round(result.planColdMs.median / result.floorYamlMs.median, 2);
    result.coldOverFloorYamlCpu = round(result.planColdCpuMs.median / result.floorYamlCpuMs.median, 2);
    note(`${posts} posts: plan ${result.planMs.median} ms, CPU ${result.planCpuMs.median} ms (peak RSS ${result.planPeakRssMiB.median} MiB), cold (--no-cache) ${result.planColdMs.median} ms, floor ${result.floorMs.median} ms, CPU ${result.floorCpuMs.median} ms (listing from both ends: ${result.floorBothEndsMs.median} ms); ratio ${result.planOverFloor} wall, ${result.planOverFloorCpu} CPU (${result.planOverFloorBothEnds} to the both-ends floor); cold ÷ YAML floor (${result.floorYamlMs.median} ms) ${result.coldOverFloorYaml} wall, ${result.coldOverFloorYamlCpu} CPU; ${requests.length} requests (${pages} list pages); load ${result.loadAverage.join(' ')}`);

    if (flags.profile) {
      const profileDir = join(workDir, `profile-plan-${posts}`);
      await runMeasured([bin, '-C', dir, '--api-url', server.baseUrl, 'plan'], { env, nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] });
      result.profile = await topFrames(profileDir, 20);
      note(`profile of plan at ${posts} posts (self time):\n${result.profile.map((f) => `  ${String(f.ms).padStart(6)} ms ${String(f.share).padStart(5)}%  ${f.frame}`).join('\n')}`);
    }

    if (posts === Math.max(...SIZES)) result.noopApply = await noopApply(dir, server);
    return result;
  } finally {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

/** `apply --yes` when nothing changed: time, and the write requests it made (must be 0). */
async function noopApply(dir, server) {
  const runs = [];
  for (let run = 0; run < Math.max(3, RUNS - 2); run++) {
    await server.clearRequests();
    const measured = await runMeasured([bin, '-C', dir, '--api-url', server.baseUrl, 'apply', '--yes'], { env });
    const writes = (await server.requests()).filter(isWrite);
    runs.push({ ms: measured.ms, cpuMs: measured.cpuMs, rss: measured.peakRssMiB, writes: writes.length });
  }
  const result = { ms: summary(runs.map((r) => r.ms)), cpuMs: summary(runs.map((r) => r.cpuMs)), peakRssMiB: summary(runs.map((r) => r.rss), 1), writeRequests: Math.max(...runs.map((r) => r.writes)), loadAverage: loadAverage() };
  note(`no-op apply: ${result.ms.median} ms, ${result.writeRequests} write requests`);
  return result;
}

const workDir = await mkdtemp(join(tmpdir(), 'postsync-bench-plan-'));
try {
  const sizes = [];
  for (const posts of SIZES) sizes.push(await benchSize(posts, workDir));
  process.stdout.write(`${JSON.stringify({ sizes })}\n`);
} finally {
  await rm(workDir, { recursive: true, force: true });
}
