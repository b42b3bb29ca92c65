#!/usr/bin/env node
// Watch benchmark: save-to-plan latency on a 1,000-post repository.
// A temp project of 1,000 posts (a quarter scheduled, three media files, 12 folders) is applied
// to an in-process emulator, then a watch session (src/watch, in-process) follows N saves of
// random posts, spaced out. Latency = from just before writeFile to the `plan` event for that
// file. Usage: npm run build && node bench/watch/run.mjs [--json] (env BENCH_SAVES, default 50;
// BENCH_BUILD: the build to measure, see bench/README.md)
import { spawn } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { bin, fromDist, root } from '../lib/paths.mjs';

const { DEMO_ACCOUNTS, DEMO_API_KEY, startEmulator } = await fromDist('src/emulator/index.js');
const { loadConfig } = await fromDist('src/config/load-config.js');
const { connect } = await fromDist('src/pipeline/connect.js');
const { WatchSession } = await fromDist('src/watch/session.js');

const POSTS = 1_000;
const SAVES = Number(process.env.BENCH_SAVES ?? 50);
/** Pause between the plan of one save and the next save: a person types, then saves (fast). */
const GAP_MS = 250;
const json = process.argv.includes('--json');

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};
const round = (n) => Math.round(n * 10) / 10;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
/** Deterministic choices, so two runs save the same files. */
let seed = 42;
const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);

const postPath = (i) => `posts/2026-${String((i % 12) + 1).padStart(2, '0')}/post-${String(i).padStart(4, '0')}.md`;
function postText(i, edit = 0) {
  const scheduled = i % 4 === 0 ? `scheduledAt: 2031-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')} 09:00\n` : '';
  const media = ['cover.png', 'cover.jpg', 'cover.png'][i % 3];
  const body = `Post number ${i} of the bench calendar.${edit > 0 ? ` Edit ${edit}.` : ''}\n\nA second paragraph, so the body is not a one-liner.`;
  return `---\n${scheduled}targets: [photo]\nmedia: [media/${media}]\n---\n${body}\n`;
}

async function makeProject() {
  const dir = await mkdtemp(join(tmpdir(), 'postsync-bench-watch-'));
  await writeFile(join(dir, 'postsync.yaml'), `timezone: Europe/Berlin\naccounts:\n  photo: ${DEMO_ACCOUNTS.photo}\n`);
  await mkdir(join(dir, 'media'));
  for (const name of ['cover.png', 'cover.jpg']) await copyFile(join(root, 'examples/media', name), join(dir, 'media', name));
  for (let month = 1; month <= 12; month += 1) await mkdir(join(dir, `posts/2026-${String(month).padStart(2, '0')}`), { recursive: true });
  await Promise.all(Array.from({ length: POSTS }, (_, i) => writeFile(join(dir, postPath(i)), postText(i))));
  return dir;
}

function applyAll(dir, baseUrl) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, '--api-url', baseUrl, 'apply', '--yes', '--concurrency', '16'], {
      cwd: dir,
      env: { ...process.env, POSTSYNC_API_KEY: DEMO_API_KEY, NO_COLOR: '1' },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`apply exited with ${code}`))));
  });
}

const emulator = await startEmulator({ port: 0 });
const dir = await makeProject();
let session;
let connection;
try {
  await applyAll(dir, emulator.baseUrl);
  const env = { POSTSYNC_API_URL: emulator.baseUrl, POSTSYNC_API_KEY: DEMO_API_KEY };
  const load = () => loadConfig({ cwd: dir, env });
  const config = await load();
  connection = await connect(config, { ci: false });

  /** file → resolve of the save waiting for its plan. */
  const waiting = new Map();
  const startedAt = performance.now();
  let startup = 0;
  let lastPlan;
  session = await WatchSession.start({
    config,
    reloadConfig: load,
    connection,
    onEvent(event) {
      const at = performance.now();
      if (event.type === 'started') startup = at - startedAt;
      if (event.type === 'error') console.error(`watch error (${event.during}): ${event.error.message}`);
      if (event.type !== 'plan') return;
      lastPlan = event.plan;
      for (const change of event.trigger.files) waiting.get(change.file)?.(at);
    },
  });

  const edits = new Map();
  const latencies = [];
  /** CPU time (user + system) of this process from each save to its plan: what the load on a shared machine barely moves. */
  const cpuPerSave = [];
  for (let save = 0; save < SAVES; save += 1) {
    const i = Math.floor(random() * POSTS);
    const file = postPath(i);
    const edit = (edits.get(i) ?? 0) + 1;
    edits.set(i, edit);
    const planned = new Promise((resolve) => waiting.set(file, resolve));
    const before = performance.now();
    const cpuBefore = process.cpuUsage();
    await writeFile(join(dir, file), postText(i, edit));
    const at = await Promise.race([planned, sleep(10_000).then(() => null)]);
    const cpu = process.cpuUsage(cpuBefore);
    cpuPerSave.push((cpu.user + cpu.system) / 1000);
    waiting.delete(file);
    if (at === null) throw new Error(`no plan within 10 s after saving ${file}`);
    latencies.push(at - before);
    await sleep(GAP_MS);
  }

  const result = {
    posts: POSTS,
    saves: SAVES,
    startupMs: round(startup),
    saveToPlanMs: { p50: round(percentile(latencies, 50)), p95: round(percentile(latencies, 95)), max: round(Math.max(...latencies)) },
    saveToPlanCpuMs: { p50: round(percentile(cpuPerSave, 50)), p95: round(percentile(cpuPerSave, 95)) },
    lastPlan: lastPlan.summary,
    /** Other work on the machine stretches every figure: report it with them. */
    machine: { cpus: cpus().length, loadAverage1m: round(loadavg()[0]) },
  };
  if (json) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  else {
    console.log(`watch on ${POSTS} posts: startup (read, list, first plan) ${result.startupMs} ms`);
    console.log(`save-to-plan latency over ${SAVES} saves: p50 ${result.saveToPlanMs.p50} ms, p95 ${result.saveToPlanMs.p95} ms, max ${result.saveToPlanMs.max} ms (target p95 ≤ 150 ms)`);
    console.log(`last plan: ${JSON.stringify(result.lastPlan)}; machine: ${result.machine.cpus} CPUs, load average ${result.machine.loadAverage1m}`);
  }
} finally {
  await session?.close();
  await connection?.close();
  await emulator.close();
  await rm(dir, { recursive: true, force: true });
}
