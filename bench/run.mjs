#!/usr/bin/env node
// `npm run bench`: runs every benchmark, each in its own process, prints one table and writes
// bench/results.json. See bench/README.md for what each figure means and how it is measured.
// Usage: node bench/run.mjs [--only startup,action,plan,apply,media,apply-scaling,history-emulator,history-plan,history-owned,calendar,calendar-edit,watch,emulator,client] [--snapshot] [--quick]
//   --snapshot  build a private copy of dist/ first (bench/.tmp/build), so others rebuilding dist/
//               during the run cannot mix two builds; BENCH_BUILD=<dir> uses an existing one.
//   --quick     fewer runs and smaller sizes, for checking the suite itself.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { bin, root } from './lib/paths.mjs';
import { buildSnapshot } from './lib/snapshot.mjs';
import { loadAverage, note, round } from './lib/stats.mjs';

const { values: flags } = parseArgs({ options: { only: { type: 'string' }, snapshot: { type: 'boolean', default: false }, quick: { type: 'boolean', default: false } } });
const only = flags.only ? new Set(flags.only.split(',')) : null;
const env = { ...process.env };
if (flags.snapshot) env.BENCH_BUILD = buildSnapshot();
if (!existsSync(env.BENCH_BUILD ? join(env.BENCH_BUILD, 'dist/cli/main.js') : bin)) throw new Error('dist/ is missing: run `npm run build` first');

/** Our benchmarks, with the arguments that keep `npm run bench` to a few minutes. */
const OWN = {
  startup: ['bench/startup/run.mjs', ...(flags.quick ? ['--runs', '5'] : [])],
  action: ['bench/action/run.mjs', ...(flags.quick ? ['--runs', '3'] : [])],
  plan: ['bench/plan/run.mjs', ...(flags.quick ? ['--sizes', '200,1000', '--runs', '2'] : ['--runs', '3'])],
  apply: ['bench/apply/run.mjs', ...(flags.quick ? ['--runs', '1', '--posts', '200'] : ['--runs', '3'])],
  media: ['bench/media/run.mjs', ...(flags.quick ? ['--runs', '1', '--mib', '128'] : ['--runs', '2'])],
  'apply-scaling': ['bench/apply/scaling.mjs', ...(flags.quick ? ['--sizes', '200,400,1000'] : [])],
  'history-emulator': ['bench/history/emulator.mjs', ...(flags.quick ? ['--sizes', '0,2000,10000', '--runs', '1', '--samples', '10'] : [])],
  'history-plan': ['bench/history/plan.mjs', ...(flags.quick ? ['--sizes', '0,2000,10000', '--runs', '1'] : ['--runs', '3'])],
  'history-owned': ['bench/history/mostly-history.mjs', ...(flags.quick ? ['--owned', '1000', '--published', '900', '--runs', '1'] : [])],
  calendar: ['bench/calendar/run.mjs', ...(flags.quick ? ['--posts', '1000', '--runs', '1', '--cold-runs', '0', '--paints', '2'] : [])],
  'calendar-edit': ['bench/calendar/edit.mjs', ...(flags.quick ? ['--posts', '1000', '--drops', '4'] : [])],
};

/** Runs a script with stderr passed through; resolves with its stdout and exit code. */
function runScript(args) {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'inherit'] });
    const chunks = [];
    child.stdout.on('data', (chunk) => chunks.push(chunk));
    child.once('close', (code) => resolve({ code, stdout: Buffer.concat(chunks).toString(), seconds: round((performance.now() - started) / 1000, 1) }));
  });
}

/** The figures a script printed: its whole stdout as JSON, else its last line as JSON, else the text. */
function parseFigures(stdout) {
  const text = stdout.trim();
  try {
    return JSON.parse(text);
  } catch {
    try {
      return JSON.parse(text.split('\n').pop());
    } catch {
      return { text };
    }
  }
}

/** Scripts written by others (bench/emulator, bench/watch, bench/client): whatever exists. */
async function othersScripts() {
  const scripts = {};
  for (const folder of ['watch', 'emulator', 'client']) {
    const dir = join(root, 'bench', folder);
    if (!existsSync(dir)) continue;
    const files = (await readdir(dir)).filter((file) => file.endsWith('.mjs')).sort();
    // A folder with a run.mjs has one entry point (its other files are helpers); else each file is one.
    for (const name of files.includes('run.mjs') ? ['run.mjs'] : files) {
      const path = `bench/${folder}/${name}`;
      const source = await readFile(join(root, path), 'utf8');
      const key = name === 'run.mjs' ? folder : `${folder}/${name.replace(/\.mjs$/, '')}`;
      scripts[key] = [path, ...(/['"]--json['"]/.test(source) ? ['--json'] : [])];
    }
  }
  return scripts;
}

const scripts = { ...OWN, ...(await othersScripts()) };
const results = { startedAt: new Date().toISOString(), machine: { cpus: cpus().length, memoryGiB: round(totalmem() / 2 ** 30, 1), node: process.version }, loadAverageAtStart: loadAverage(), benchmarks: {} };
for (const [name, args] of Object.entries(scripts)) {
  if (only && !only.has(name) && !only.has(name.split('/')[0])) continue;
  note(`\n== ${name}: node ${args.join(' ')}  (load ${loadAverage().join(' ')})`);
  const { code, stdout, seconds } = await runScript(args);
  results.benchmarks[name] = { seconds, exitCode: code, ...(code === 0 ? { figures: parseFigures(stdout) } : { error: stdout.trim().slice(-2000) || `exited with ${code}` }) };
}
results.loadAverageAtEnd = loadAverage();
await writeFile(join(root, 'bench/results.json'), `${JSON.stringify(results, null, 2)}\n`);
const { renderTable } = await import('./lib/table.mjs');
process.stdout.write(`${renderTable(results)}\n`);
