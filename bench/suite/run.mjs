#!/usr/bin/env node
// The test suite's cost: `vitest run` of some test folders (all of test/ by default), with the
// files sharing their worker's modules (the config's default) and with every file isolated
// (POSTSYNC_TEST_ISOLATE=1), alternately, --runs times each. Wall and CPU time of vitest and
// everything it started (the CLI runs, git, Chromium): user + system of the waited-for children,
// from /proc/self/stat, so the figure is Linux-only.
// Usage: npm run build && node bench/suite/run.mjs [--runs 1] [test/plan test/text ...]
// Progress on stderr; the last stdout line is the results as JSON.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { root } from '../lib/paths.mjs';
import { loadAverage, note, summary } from '../lib/stats.mjs';

const { values: flags, positionals: folders } = parseArgs({ options: { runs: { type: 'string', default: '1' } }, allowPositionals: true });
const RUNS = Number(flags.runs);

/** CPU seconds of the children this process has waited for (cutime + cstime), in clock ticks of 1/100 s. */
function childrenCpuSeconds() {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  // After the command name: field 3 is state, so cutime (16) and cstime (17) are at 13 and 14.
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

function vitest(isolate) {
  return new Promise((resolve, reject) => {
    const cpuBefore = childrenCpuSeconds();
    const started = performance.now();
    const env = { ...process.env, POSTSYNC_TEST_ISOLATE: isolate ? '1' : '0' };
    const child = spawn(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', '--reporter=dot', ...folders], { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('error', reject);
    child.on('close', (code) => {
      const wall = (performance.now() - started) / 1000;
      resolve({ ok: code === 0, wallS: Math.round(wall), cpuS: Math.round(childrenCpuSeconds() - cpuBefore) });
    });
  });
}

const runs = { shared: [], isolated: [] };
for (let run = 0; run < RUNS; run++) {
  for (const isolate of [false, true]) {
    const result = await vitest(isolate);
    const name = isolate ? 'isolated' : 'shared';
    runs[name].push(result);
    note(`${name}: ${result.wallS} s wall, ${result.cpuS} s CPU${result.ok ? '' : ' (some tests failed)'}`);
  }
}
const results = Object.fromEntries(Object.entries(runs).map(([name, list]) => [name, { wallS: summary(list.map((r) => r.wallS)), cpuS: summary(list.map((r) => r.cpuS)), allPassed: list.every((r) => r.ok) }]));
results.folders = folders.length === 0 ? ['test'] : folders;
results.loadAverage = loadAverage();
process.stdout.write(`${JSON.stringify(results)}\n`);
