#!/usr/bin/env node
// History scaling, the emulator's part: a `postsync serve` process whose fixture holds a calendar
// of 1,000 posts (700 scheduled in 2031, 300 drafts) over 0, 20,000 and 100,000 historical
// published posts (fixture `history`). Reported per size: seeding time (spawn to the "listening"
// line, and the server's CPU time until then, from /proc), the server's RSS, and the p50/p95 of a
// page (limit 100), with the server's CPU time per request, for each listing postsync uses:
// - oldest / newest: the first page and pages after (and before) cursors all through the list;
// - status: `status=draft` and `status=scheduled` (newest first), `status=published` after deep cursors;
// - schedule_desc: the first page and the pages that follow it (scheduled posts, latest first),
//   and pages after cursors among the unscheduled posts, which come last;
// - by id: GET /posts/{id} of posts all through the list.
// Usage: npm run build && node bench/history/emulator.mjs [--sizes 0,20000,100000] [--runs 3] [--samples 40] [--as-posts]
//   --as-posts  writes every post into the fixture's `posts` list instead of `history` batches (the
//               only way before `history` existed; past schedules get published by the first request).
// Progress on stderr; the last stdout line is the results as JSON.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { Agent, request } from 'undici';
import { bin } from '../lib/paths.mjs';
import { DEMO_ACCOUNTS, DEMO_API_KEY } from '../lib/project.mjs';
import { demoProjectFixture } from '../lib/serve.mjs';
import { loadAverage, median, note, round, summary } from '../lib/stats.mjs';

const { values: flags } = parseArgs({ options: { sizes: { type: 'string', default: '0,20000,100000' }, runs: { type: 'string', default: '3' }, samples: { type: 'string', default: '40' }, 'as-posts': { type: 'boolean', default: false } } });
const SIZES = flags.sizes.split(',').map(Number);
const RUNS = Number(flags.runs);
const SAMPLES = Number(flags.samples);
const CALENDAR = [
  { posts: 700, status: 'scheduled', scheduledFrom: '2031-01-01T00:00:00Z', createdFrom: '2026-01-01T00:00:00Z', everySeconds: 3600, content: 'Calendar post' },
  { posts: 300, status: 'draft', createdFrom: '2026-02-01T00:00:00Z', everySeconds: 3600, content: 'Calendar draft' },
];
const agent = new Agent({ connections: 1, pipelining: 1 });
const headers = { authorization: `Bearer ${DEMO_API_KEY}` };
const TICK_MS = 10; // USER_HZ on Linux: /proc times are in 1/100 s

function fixtureWith(history) {
  const batches = history > 0 ? [{ posts: history, status: 'published', createdFrom: '2020-01-01T00:00:00Z', everySeconds: 600 }, ...CALENDAR] : CALENDAR;
  if (!flags['as-posts']) return demoProjectFixture(DEMO_ACCOUNTS, DEMO_API_KEY, { history: batches });
  const accounts = Object.values(DEMO_ACCOUNTS);
  const iso = (ms) => new Date(ms).toISOString();
  const posts = batches.flatMap((batch) =>
    Array.from({ length: batch.posts }, (_, i) => {
      const createdMs = Date.parse(batch.createdFrom) + i * batch.everySeconds * 1000;
      const scheduledMs = batch.status === 'draft' ? null : batch.status === 'scheduled' ? Date.parse(batch.scheduledFrom) + i * batch.everySeconds * 1000 : createdMs + 3_600_000;
      return { content: `${batch.content ?? 'History post'} ${i + 1}`, createdAt: iso(createdMs), scheduledAt: scheduledMs === null ? null : iso(scheduledMs), targets: [{ socialAccountId: accounts[i % accounts.length] }] };
    }),
  );
  return demoProjectFixture(DEMO_ACCOUNTS, DEMO_API_KEY, { posts });
}

/** User + system CPU time of a process so far (ms), and its current and peak RSS (MiB). */
function processFigures(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (name) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN);
  return { cpuMs: (Number(fields[11]) + Number(fields[12])) * TICK_MS, rssMiB: kib('VmRSS') / 1024, peakRssMiB: kib('VmHWM') / 1024 };
}

async function serve(fixtureFile) {
  const started = performance.now();
  const child = spawn(process.execPath, [bin, 'serve', '--port', '0', '--fixture', fixtureFile], { stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}`)));
  });
  const startMs = performance.now() - started;
  return {
    baseUrl: /listening on (\S+)/.exec(line)[1],
    startMs,
    atStart: processFigures(child.pid),
    figures: () => processFigures(child.pid),
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

async function get(baseUrl, path) {
  const response = await request(`${baseUrl}${path}`, { headers, dispatcher: agent });
  const text = await response.body.text();
  if (response.statusCode !== 200) throw new Error(`GET ${path} → ${response.statusCode} ${text.slice(0, 300)}`);
  return JSON.parse(text).data;
}

/** `count` values spread evenly over `values`. */
const spread = (values, count) => Array.from({ length: Math.min(count, values.length) }, (_, i) => values[Math.floor((i * values.length) / Math.min(count, values.length))]);

/** Every post id in `sort` order (one walk, limit 100). */
async function walk(baseUrl, query) {
  const ids = [];
  let cursor = null;
  do {
    const page = await get(baseUrl, `/posts?limit=100&${query}${cursor ? `&after=${cursor}` : ''}`);
    for (const item of page.items) ids.push(item.id);
    cursor = page.nextCursor;
  } while (cursor);
  return ids;
}

async function pageTimes(baseUrl, expectedPosts, serverFigures) {
  const oldest = await walk(baseUrl, 'sort=oldest');
  if (oldest.length !== expectedPosts) throw new Error(`listed ${oldest.length} posts, expected ${expectedPosts}`);
  const drafts = await walk(baseUrl, 'sort=newest&status=draft');
  const scheduleDesc = await walk(baseUrl, 'sort=schedule_desc');
  const deep = spread(oldest, SAMPLES);
  const queries = {
    'oldest/newest': [
      'sort=oldest&limit=100',
      'sort=newest&limit=100',
      ...deep.flatMap((id) => [`sort=oldest&limit=100&after=${id}`, `sort=newest&limit=100&after=${id}`, `sort=newest&limit=100&before=${id}`]),
    ],
    status: [
      'sort=newest&limit=100&status=draft',
      'sort=schedule_desc&limit=100&status=scheduled',
      ...spread(drafts, SAMPLES).map((id) => `sort=newest&limit=100&status=draft&after=${id}`),
      ...deep.map((id) => `sort=newest&limit=100&status=published&after=${id}`),
    ],
    schedule_desc: [
      'sort=schedule_desc&limit=100',
      // The scoped read: from the latest schedule down, page by page (cursors among scheduled posts) ...
      ...spread(scheduleDesc.slice(0, 700), SAMPLES).map((id) => `sort=schedule_desc&limit=100&after=${id}`),
      // ... and pages deep in the list, down to the unscheduled posts that come last.
      ...spread(scheduleDesc, SAMPLES).map((id) => `sort=schedule_desc&limit=100&after=${id}`),
    ],
    'by id': deep.map((id) => `/${id}`),
  };
  const pathOf = (query) => (query.startsWith('/') ? `/posts${query}` : `/posts?${query}`);
  for (const list of Object.values(queries)) for (const query of list.slice(0, 10)) await get(baseUrl, pathOf(query)); // warm-up
  const times = {};
  const cpu = {};
  for (const [kind, list] of Object.entries(queries)) {
    times[kind] = [];
    const cpuBefore = serverFigures().cpuMs;
    for (let round = 0; round < 3; round++) {
      for (const query of list) {
        const t0 = performance.now();
        await get(baseUrl, pathOf(query));
        times[kind].push(performance.now() - t0);
      }
    }
    cpu[kind] = serverFigures().cpuMs - cpuBefore;
  }
  const percentile = (values, p) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))];
  const all = Object.values(times).flat();
  return {
    requests: all.length,
    p50: round(median(all), 2),
    p95: round(percentile(all, 95), 2),
    // Server CPU per request (user + system, /proc): what a page costs the emulator, little moved by other load.
    serverCpuMsPerRequest: round(Object.values(cpu).reduce((a, b) => a + b, 0) / all.length, 3),
    byKind: Object.fromEntries(Object.entries(times).map(([kind, values]) => [kind, { requests: values.length, p50: round(median(values), 2), p95: round(percentile(values, 95), 2), serverCpuMsPerRequest: round(cpu[kind] / values.length, 3) }])),
  };
}

const dir = await mkdtemp(join(tmpdir(), 'postsync-bench-history-'));
try {
  const sizes = [];
  for (const history of SIZES) {
    const file = join(dir, `fixture-${history}.json`);
    await writeFile(file, JSON.stringify(fixtureWith(history)));
    const starts = [];
    let pages;
    let rssMiB;
    for (let run = 0; run < RUNS; run++) {
      const server = await serve(file);
      try {
        starts.push({ ms: server.startMs, cpuMs: server.atStart.cpuMs });
        note(`history ${history}, start ${run + 1}: listening after ${Math.round(server.startMs)} ms (server CPU ${server.atStart.cpuMs} ms, RSS ${round(server.atStart.rssMiB)} MiB); load ${loadAverage().join(' ')}`);
        if (run === RUNS - 1) {
          pages = await pageTimes(server.baseUrl, history + 1000, server.figures);
          rssMiB = { atStart: round(server.atStart.rssMiB, 1), peak: round(server.figures().peakRssMiB, 1) };
          note(`history ${history}: page p50 ${pages.p50} ms, p95 ${pages.p95} ms over ${pages.requests} requests; ${JSON.stringify(pages.byKind)}`);
        }
      } finally {
        await server.stop();
      }
    }
    sizes.push({ history, posts: history + 1000, startMs: summary(starts.map((s) => s.ms)), startCpuMs: summary(starts.map((s) => s.cpuMs)), serverRssMiB: rssMiB, pages });
  }
  const base = sizes[0];
  for (const size of sizes) {
    size.seedingMs = round(size.startMs.median - base.startMs.median);
    size.seedingCpuMs = round(size.startCpuMs.median - base.startCpuMs.median);
    size.p50VsNoHistory = round(size.pages.p50 / base.pages.p50, 2);
  }
  process.stdout.write(`${JSON.stringify({ calendarPosts: 1000, fixture: flags['as-posts'] ? 'posts' : 'history', sizes, loadAverage: loadAverage() })}\n`);
} finally {
  await agent.close();
  await rm(dir, { recursive: true, force: true });
}
