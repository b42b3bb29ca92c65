#!/usr/bin/env node
// A calendar that is mostly history: 10,000 owned posts, 9,000 of them published since. After one
// apply has seen them published (and recorded them final), a no-change plan should read about the
// pages of the other 1,000 plus a constant, not the 9,000 again. Reported: the requests of that
// apply and of the plans after it (scoped, the default, and --refresh-all), with their median wall
// times, and the requests the scoped plan makes over ceil(open / 100).
// Usage: npm run build && node bench/history/mostly-history.mjs [--owned 10000] [--published 9000] [--runs 3]
// Progress on stderr; the last stdout line is the results as JSON.
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pLimit from 'p-limit';
import { request } from 'undici';
import { runMeasured } from '../lib/measure.mjs';
import { bin } from '../lib/paths.mjs';
import { DEMO_ACCOUNTS, DEMO_API_KEY, seedRemote, writeProject } from '../lib/project.mjs';
import { demoProjectFixture, startServe } from '../lib/serve.mjs';
import { loadAverage, median, note, round } from '../lib/stats.mjs';

const { values: flags } = parseArgs({ options: { owned: { type: 'string', default: '10000' }, published: { type: 'string', default: '9000' }, runs: { type: 'string', default: '3' } } });
const OWNED = Number(flags.owned);
const PUBLISHED = Number(flags.published);
const RUNS = Number(flags.runs);
const env = { POSTSYNC_API_KEY: DEMO_API_KEY };

/** Post `i`: an image post, the first PUBLISHED ones scheduled in 2030 (published once the emulator's clock passes 2031), the others in 2032. */
function postText(i) {
  const year = i < PUBLISHED ? 2030 : 2032;
  // In UTC: a wall time of the project's zone could fall in a DST gap.
  const day = new Date(Date.UTC(year, 0, 1) + i * 3_600_000).toISOString().replace('.000Z', 'Z');
  return ['---', `scheduledAt: ${day}`, 'targets: [brand-photo]', 'media: [media/cover.png]', '---', `Post ${i}: from the archive of our café.`, ''].join('\n');
}

const workDir = await mkdtemp(join(tmpdir(), 'postsync-bench-mostly-history-'));
const server = await startServe({ dir: workDir, fixture: demoProjectFixture(DEMO_ACCOUNTS, DEMO_API_KEY) });
try {
  const dir = join(workDir, 'project');
  await writeProject(dir, { posts: 0 });
  const limit = pLimit(32);
  for (let i = 0; i < OWNED; i += 100) await mkdir(join(dir, 'posts', `batch-${String(i / 100).padStart(3, '0')}`), { recursive: true });
  await Promise.all(Array.from({ length: OWNED }, (_, i) => limit(() => writeFile(join(dir, 'posts', `batch-${String(Math.floor(i / 100)).padStart(3, '0')}`, `post-${String(i).padStart(5, '0')}.md`), postText(i)))));
  note(`seeding ${OWNED} owned posts…`);
  await seedRemote(dir, { baseUrl: server.baseUrl });
  const clock = await request(`${server.origin}/_emulator/clock`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-postsync-token': server.controlToken }, body: JSON.stringify({ now: '2031-06-01T00:00:00Z' }) });
  await clock.body.dump();
  // Files changed in the last 2 s are never trusted by their stamp alone: wait, as plan/run.mjs does.
  await new Promise((resolve) => setTimeout(resolve, 2100));

  const cli = (...args) => runMeasured([bin, '-C', dir, '--api-url', server.baseUrl, ...args], { env });
  await server.clearRequests();
  const applied = await cli('apply', '--yes');
  if (applied.code !== 0) throw new Error(`apply failed:\n${applied.stdout.slice(-1500)}${applied.stderr.slice(-1500)}`);
  const applyRequests = (await server.requests()).length;
  note(`the apply that sees ${PUBLISHED} posts published: ${applyRequests} requests, ${round(applied.ms)} ms`);

  const figures = {};
  for (const [name, extra] of [['scoped', []], ['refreshAll', ['--refresh-all']]]) {
    await server.clearRequests();
    const first = await cli('plan', ...extra);
    if (!/No changes/.test(first.stdout)) throw new Error(`the plan is not a no-op:\n${first.stdout.slice(-1500)}`);
    const requests = (await server.requests()).length;
    const times = [];
    for (let run = 0; run < RUNS; run += 1) times.push((await cli('plan', ...extra)).ms);
    figures[name] = { requests, ms: round(median(times)) };
    note(`plan${extra.length ? ` ${extra.join(' ')}` : ''}: ${requests} requests, ${figures[name].ms} ms`);
  }
  const openPages = Math.ceil((OWNED - PUBLISHED) / 100);
  process.stdout.write(`${JSON.stringify({ owned: OWNED, published: PUBLISHED, runs: RUNS, load: loadAverage(), apply: { requests: applyRequests, ms: round(applied.ms) }, ...figures, openPages, scopedRequestsOverOpenPages: figures.scoped.requests - openPages })}\n`);
} finally {
  await server.stop();
  await rm(workDir, { recursive: true, force: true });
}
