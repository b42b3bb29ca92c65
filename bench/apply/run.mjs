#!/usr/bin/env node
// Apply under a rate limit: `postsync apply --yes` of 1,000 new posts (plus their 2 media files)
// against an emulator process whose project allows 50 requests per 1 s window. Each run starts
// from an empty remote and no state. Reported: wall time next to the ideal (the API requests the
// service counted ÷ 50/s), and the requests answered 429 (from the emulator's request log).
// Usage: npm run build && node bench/apply/run.mjs [--runs 3] [--posts 1000] [--limit 50] [--concurrency N]
// (without --concurrency, apply runs with its own default)
// Progress on stderr; the last stdout line is the results as JSON.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { runMeasured } from '../lib/measure.mjs';
import { bin } from '../lib/paths.mjs';
import { DEMO_ACCOUNTS, DEMO_API_KEY, writeProject } from '../lib/project.mjs';
import { demoProjectFixture, startServe } from '../lib/serve.mjs';
import { loadAverage, median, note, round, summary } from '../lib/stats.mjs';

const { values: flags } = parseArgs({ options: { runs: { type: 'string', default: '3' }, posts: { type: 'string', default: '1000' }, limit: { type: 'string', default: '50' }, concurrency: { type: 'string' } } });
const RUNS = Number(flags.runs);
const POSTS = Number(flags.posts);
const LIMIT = Number(flags.limit);
const WINDOW_SECONDS = 1;

async function oneRun(workDir, run) {
  const dir = join(workDir, `project-${run}`);
  await writeProject(dir, { posts: POSTS, variant: `run${run}` });
  const fixture = demoProjectFixture(DEMO_ACCOUNTS, DEMO_API_KEY, { rateLimit: { limit: LIMIT, windowSeconds: WINDOW_SECONDS } });
  const server = await startServe({ dir: workDir, fixture });
  try {
    const extra = flags.concurrency ? ['--concurrency', flags.concurrency] : [];
    const measured = await runMeasured([bin, '-C', dir, '--api-url', server.baseUrl, 'apply', '--yes', ...extra], { env: { POSTSYNC_API_KEY: DEMO_API_KEY } });
    const log = await server.requests();
    const api = log.filter((entry) => entry.path.startsWith('/public/v1'));
    const rejected = api.filter((entry) => entry.status === 429).length;
    const counted = api.length - rejected;
    const created = api.filter((entry) => entry.method === 'POST' && entry.path === '/public/v1/posts' && entry.status === 201).length;
    if (created !== POSTS) throw new Error(`apply created ${created} posts, expected ${POSTS}`);
    const idealMs = (counted / (LIMIT / WINDOW_SECONDS)) * 1000;
    const result = {
      ms: measured.ms,
      cpuMs: measured.cpuMs,
      idealMs,
      apiRequests: api.length,
      counted,
      rejected429: rejected,
      storagePuts: log.filter((entry) => entry.method === 'PUT' && entry.path.startsWith('/_storage/')).length,
    };
    note(`run ${run + 1}: ${round(result.ms / 1000, 1)} s, ideal ${round(idealMs / 1000, 1)} s (${counted} counted requests ÷ ${LIMIT}/s), ${rejected} answered 429; load ${loadAverage().join(' ')}`);
    return result;
  } finally {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

const workDir = await mkdtemp(join(tmpdir(), 'postsync-bench-apply-'));
try {
  const runs = [];
  for (let run = 0; run < RUNS; run++) runs.push(await oneRun(workDir, run));
  const ratios = runs.map((r) => r.ms / r.idealMs);
  const rejectShares = runs.map((r) => (r.rejected429 / r.apiRequests) * 100);
  const result = {
    posts: POSTS,
    concurrency: flags.concurrency ? Number(flags.concurrency) : 'default',
    rateLimit: { limit: LIMIT, windowSeconds: WINDOW_SECONDS },
    ms: summary(runs.map((r) => r.ms)),
    cpuMs: summary(runs.map((r) => r.cpuMs)),
    idealMs: summary(runs.map((r) => r.idealMs)),
    overIdeal: summary(ratios, 3),
    apiRequests: summary(runs.map((r) => r.apiRequests)),
    rejected429: summary(runs.map((r) => r.rejected429)),
    rejectedPercent: round(median(rejectShares), 2),
    storagePuts: median(runs.map((r) => r.storagePuts)),
    loadAverage: loadAverage(),
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
} finally {
  await rm(workDir, { recursive: true, force: true });
}
