#!/usr/bin/env node
// CLI start-up: wall time of `postsync --version` and `postsync --help` (median of --runs, 12 by
// default, after 2 warm-up runs), each its own process, next to a bare `node -e 0` for scale.
// Usage: npm run build && node bench/startup/run.mjs [--runs 12] [--profile]
// Progress on stderr; the last stdout line is the results as JSON.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { runMeasured } from '../lib/measure.mjs';
import { bin } from '../lib/paths.mjs';
import { topFrames } from '../lib/profile.mjs';
import { loadAverage, note, summary } from '../lib/stats.mjs';

const { values: flags } = parseArgs({ options: { runs: { type: 'string', default: '12' }, profile: { type: 'boolean', default: false } } });
const RUNS = Number(flags.runs);

const commands = {
  nodeBare: ['-e', '0'],
  version: [bin, '--version'],
  help: [bin, '--help'],
};

const results = {};
for (const [name, args] of Object.entries(commands)) {
  for (let warm = 0; warm < 2; warm++) await runMeasured(args);
  const runs = [];
  for (let run = 0; run < RUNS; run++) runs.push(await runMeasured(args));
  results[name] = { ms: summary(runs.map((r) => r.ms)), cpuMs: summary(runs.map((r) => r.cpuMs)), peakRssMiB: summary(runs.map((r) => r.peakRssMiB), 1) };
  note(`${name}: ${results[name].ms.median} ms wall, ${results[name].cpuMs.median} ms CPU`);
}
if (flags.profile) {
  const dir = await mkdtemp(join(tmpdir(), 'postsync-bench-startup-'));
  try {
    await runMeasured([...['--cpu-prof', `--cpu-prof-dir=${dir}`], bin, '--version']);
    results.versionProfile = await topFrames(dir, 15);
    note(`profile of --version (self time):\n${results.versionProfile.map((f) => `  ${String(f.ms).padStart(5)} ms ${String(f.share).padStart(5)}%  ${f.frame}`).join('\n')}`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
results.loadAverage = loadAverage();
process.stdout.write(`${JSON.stringify(results)}\n`);
