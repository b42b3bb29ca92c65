#!/usr/bin/env node
// Client pacing benchmark: N concurrent GETs through one ApiClient against `postsync serve` with a
// project rate limit (default 50 requests per 1 s window). Prints, per run, the 429 answers the
// emulator logged and the elapsed time next to the ideal (requests ÷ rate).
// Usage: npm run build && node bench/client/run.mjs [--requests 500] [--limit 50] [--window 1] [--runs 3]
// Progress on stderr; the last stdout line is the results as JSON.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { fromDist } from '../lib/paths.mjs';
import { startServe } from '../lib/serve.mjs';
import { loadAverage, note, round, summary } from '../lib/stats.mjs';

const { values: flags } = parseArgs({
  options: {
    requests: { type: 'string', default: '500' },
    limit: { type: 'string', default: '50' },
    window: { type: 'string', default: '1' },
    runs: { type: 'string', default: '3' },
  },
});
const REQUESTS = Number(flags.requests);
const LIMIT = Number(flags.limit);
const WINDOW_SECONDS = Number(flags.window);
const RUNS = Number(flags.runs);
const KEY = 'bench-client-key';
const PERMISSIONS = ['accounts-read', 'posts-read', 'posts-write', 'posts-publish', 'posts-delete', 'media-write'];

const { ApiClient } = await fromDist('src/api/index.js');
const idealMs = (REQUESTS / (LIMIT / WINDOW_SECONDS)) * 1000;

/** One run: a fresh client (so it learns the window from scratch) and a fresh emulator process. */
async function run(dir) {
  const fixture = { projects: [{ id: 'bench', rateLimit: { limit: LIMIT, windowSeconds: WINDOW_SECONDS }, keys: [{ token: KEY, permissions: PERMISSIONS }], accounts: [] }] };
  const server = await startServe({ dir, fixture });
  const client = new ApiClient({ baseUrl: server.baseUrl, apiKey: KEY });
  try {
    const started = performance.now();
    await Promise.all(Array.from({ length: REQUESTS }, () => client.listPostsPage({ limit: 1 })));
    const elapsedMs = performance.now() - started;
    const logged = (await server.requests()).filter((entry) => entry.path.endsWith('/posts'));
    const tooMany = logged.filter((entry) => entry.status === 429).length;
    return { elapsedMs, sent: logged.length, tooMany, share: tooMany / logged.length };
  } finally {
    await client.close();
    await server.stop();
  }
}

const dir = await mkdtemp(join(tmpdir(), 'postsync-bench-client-'));
const results = [];
try {
  for (let index = 0; index < RUNS; index++) {
    const result = await run(dir);
    results.push(result);
    note(
      `run ${index + 1}: ${REQUESTS} concurrent GETs at ${LIMIT}/${WINDOW_SECONDS}s: ${result.tooMany} × 429 of ${result.sent} requests ` +
        `(${round(result.share * 100, 2)}%), ${round(result.elapsedMs / 1000, 2)} s vs ideal ${round(idealMs / 1000, 2)} s ` +
        `(${round(result.elapsedMs / idealMs, 2)}×)`,
    );
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}

console.log(
  JSON.stringify({
    bench: 'client-pacing',
    requests: REQUESTS,
    rateLimit: { limit: LIMIT, windowSeconds: WINDOW_SECONDS },
    idealSeconds: round(idealMs / 1000, 2),
    elapsedSeconds: summary(results.map((r) => r.elapsedMs / 1000), 2),
    tooManyRequests: summary(results.map((r) => r.tooMany)),
    tooManyShare: summary(results.map((r) => r.share), 4),
    loadAverage: loadAverage(),
  }),
);
