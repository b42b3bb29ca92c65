#!/usr/bin/env node
// The GitHub Action's start-up: what a run spends before postsync starts. The action's first
// composite step (put `postsync` on the PATH, from action.yml, through bash as the runner runs
// it) and then `node action/postsync.mjs --version` (the self-contained bundle loads and runs),
// each timed from spawn to exit; median of --runs (10 by default) after 2 warm-ups. The bundle
// measured is dist/action/postsync.mjs, the one `npm run build` writes (action/ holds its
// committed copy).
// Usage: npm run build && node bench/action/run.mjs [--runs 10]
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { parse } from 'yaml';
import { runMeasured } from '../lib/measure.mjs';
import { buildRoot, root } from '../lib/paths.mjs';
import { loadAverage, note, summary } from '../lib/stats.mjs';

const { values: flags } = parseArgs({ options: { runs: { type: 'string', default: '10' } } });
const RUNS = Number(flags.runs);
const bundle = join(buildRoot, 'dist/action/postsync.mjs');
const action = parse(await readFile(join(root, 'action.yml'), 'utf8'));
const setup = action.runs.steps.find((step) => step.id === 'setup');

/** The setup step as the runner runs a `shell: bash` step, in a fresh runner temp folder. */
async function runSetup() {
  const temp = await mkdtemp(join(tmpdir(), 'postsync-bench-action-'));
  try {
    const script = join(temp, 'setup.sh');
    await writeFile(script, setup.run);
    await writeFile(join(temp, 'path'), '');
    const started = performance.now();
    const code = await new Promise((resolve, reject) => {
      const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], {
        env: { PATH: process.env.PATH, RUNNER_TEMP: temp, GITHUB_PATH: join(temp, 'path'), POSTSYNC_ACTION_PATH: buildRoot },
        stdio: 'ignore',
      });
      child.once('error', reject);
      child.once('close', resolve);
    });
    if (code !== 0) throw new Error(`the setup step exited with ${code}`);
    return performance.now() - started;
  } finally {
    await rm(temp, { recursive: true, force: true });
  }
}

for (let warm = 0; warm < 2; warm++) {
  await runSetup();
  await runMeasured([bundle, '--version']);
}
const setupMs = [];
const postsyncMs = [];
const postsyncCpuMs = [];
const totalMs = [];
for (let run = 0; run < RUNS; run++) {
  const setupRun = await runSetup();
  const start = await runMeasured([bundle, '--version']);
  setupMs.push(setupRun);
  postsyncMs.push(start.ms);
  postsyncCpuMs.push(start.cpuMs);
  totalMs.push(setupRun + start.ms);
}
const { size } = await import('node:fs').then(({ statSync }) => statSync(bundle));
const results = { setupMs: summary(setupMs), bundleVersionMs: summary(postsyncMs), bundleVersionCpuMs: summary(postsyncCpuMs), beforePostsyncMs: summary(totalMs), bundleMiB: Math.round((size / 1024 / 1024) * 10) / 10, loadAverage: loadAverage() };
note(`action start-up: setup step ${results.setupMs.median} ms + bundle --version ${results.bundleVersionMs.median} ms (${results.bundleVersionCpuMs.median} ms CPU) = ${results.beforePostsyncMs.median} ms before postsync runs (bundle ${results.bundleMiB} MiB)`);
process.stdout.write(`${JSON.stringify(results)}\n`);
