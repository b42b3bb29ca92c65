#!/usr/bin/env node
// History scaling, postsync's part: 10 post files, applied, over 0, 20,000 and 100,000 historical
// published posts on the remote (fixture `history`). Reported per size: the requests of one
// no-change `postsync plan` (scoped, the default) and of `plan --refresh-all` (the full listing),
// the median wall time of each, and the scoped plan's time over the scoped plan with no history.
// Usage: npm run build && node bench/history/plan.mjs [--sizes 0,20000,100000] [--runs 5]
// Progress on stderr; the last stdout line is the results as JSON.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { runMeasured } from '../lib/measure.mjs';
import { bin } from '../lib/paths.mjs';
import { DEMO_ACCOUNTS, DEMO_API_KEY, seedRemote, writeProject } from '../lib/project.mjs';
import { demoProjectFixture, startServe } from '../lib/serve.mjs';
import { loadAverage, median, note, round } from '../lib/stats.mjs';

const { values: flags } = parseArgs({ options: { sizes: { type: 'string', default: '0,20000,100000' }, runs: { type: 'string', default: '5' } } });
const SIZES = flags.sizes.split(',').map(Number);
const RUNS = Number(flags.runs);
const FILES = 10;
const env = { POSTSYNC_API_KEY: DEMO_API_KEY };

async function benchSize(history, workDir) {
  const dir = join(workDir, `project-${history}`);
  await writeProject(dir, { posts: FILES });
  const batches = history > 0 ? [{ posts: history, status: 'published', createdFrom: '2020-01-01T00:00:00Z', everySeconds: 600 }] : [];
  const server = await startServe({ dir: workDir, fixture: demoProjectFixture(DEMO_ACCOUNTS, DEMO_API_KEY, { history: batches }) });
  try {
    await seedRemote(dir, { baseUrl: server.baseUrl });
    // Files changed in the last 2 s are never trusted by their stamp alone: wait, as plan/run.mjs does.
    await new Promise((resolve) => setTimeout(resolve, 2100));
    const figures = {};
    for (const [name, extra] of [['scoped', []], ['refreshAll', ['--refresh-all']]]) {
      const plan = () => runMeasured([bin, '-C', dir, '--api-url', server.baseUrl, 'plan', ...extra], { env });
      const first = await plan();
      if (!/No changes/.test(first.stdout)) throw new Error(`the plan is not a no-op:\n${first.stdout.slice(-1500)}`);
      await server.clearRequests();
      await plan();
      const requests = (await server.requests()).length;
      const times = [];
      for (let run = 0; run < RUNS; run += 1) times.push((await plan()).ms);
      figures[name] = { requests, ms: round(median(times)) };
    }
    note(`history ${history}: scoped ${figures.scoped.requests} requests ${figures.scoped.ms} ms; --refresh-all ${figures.refreshAll.requests} requests ${figures.refreshAll.ms} ms`);
    return { history, ...figures };
  } finally {
    await server.stop();
  }
}

const workDir = await mkdtemp(join(tmpdir(), 'postsync-bench-history-plan-'));
try {
  const results = [];
  for (const size of SIZES) results.push(await benchSize(size, workDir));
  const base = results.find((r) => r.history === 0)?.scoped.ms;
  for (const r of results) r.scopedOverNoHistory = base === undefined ? null : round(r.scoped.ms / base, 2);
  process.stdout.write(`${JSON.stringify({ files: FILES, runs: RUNS, load: loadAverage(), results })}\n`);
} finally {
  await rm(workDir, { recursive: true, force: true });
}
