#!/usr/bin/env node
// Emulator benchmark: GET /posts page time at 100,000 posts, creates per second in memory and
// with --data, and the peak RSS of the server during a large multipart upload.
// Every figure is measured against a real `postsync serve` child process over HTTP.
// Usage: npm run build && node bench/emulator/run.mjs [--json] (env BENCH_UPLOAD_MIB, default 1024)
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';
import { mediaGenerators } from '../lib/paths.mjs';
import { demoProjectFixture } from '../lib/serve.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const { DEMO_ACCOUNTS, DEMO_API_KEY } = await import(join(root, 'dist/src/emulator/index.js'));
const { mp4Layout } = await mediaGenerators();
const bin = join(root, 'dist/cli/main.js');
const POSTS = 100_000;
const UPLOAD_MIB = Number(process.env.BENCH_UPLOAD_MIB ?? 1024);
const agent = new Agent({ connections: 32, pipelining: 1 });
const headers = { authorization: `Bearer ${DEMO_API_KEY}`, 'content-type': 'application/json' };

async function serve(args) {
  const child = spawn(process.execPath, [bin, 'serve', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}`)));
  });
  return {
    baseUrl: line.replace('listening on ', ''),
    pid: child.pid,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}

async function call(method, url, body) {
  const response = await request(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), dispatcher: agent });
  const text = await response.body.text();
  if (response.statusCode >= 300) throw new Error(`${method} ${url} → ${response.statusCode} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : undefined;
}

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};
const round = (n, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

/** 100,000 seed posts: three quarters scheduled (ties every few posts), a quarter drafts. */
function bigFixture() {
  const accounts = Object.values(DEMO_ACCOUNTS);
  const start = Date.UTC(2025, 0, 1);
  const posts = Array.from({ length: POSTS }, (_, i) => ({
    content: `Bench post ${i}${i % 50 === 0 ? ' launch' : ''}`,
    createdAt: new Date(start + Math.floor(i / 2) * 1000).toISOString(),
    scheduledAt: i % 4 === 0 ? null : new Date(Date.UTC(2031, 0, 1) + ((i * 7919) % POSTS) * 60_000).toISOString(),
    targets: [{ socialAccountId: accounts[i % 3], ...(i % 3 === 1 ? { options: { vidATitle: 'Bench' } } : {}) }],
  }));
  return demoProjectFixture(DEMO_ACCOUNTS, DEMO_API_KEY, { posts });
}

async function pageTimes(dir) {
  const file = join(dir, 'fixture.json');
  await writeFile(file, JSON.stringify(bigFixture()));
  const startedAt = performance.now();
  const server = await serve(['--fixture', file]);
  const startupMs = performance.now() - startedAt;
  console.error(`started with ${POSTS} posts in ${Math.round(startupMs)} ms`);
  try {
    // Cursors at every depth: one walk through the whole list, keeping an id every 2,500 posts.
    const ids = [];
    let cursor = null;
    let pageNumber = 0;
    do {
      const page = await call('GET', `${server.baseUrl}/posts?limit=100&sort=oldest${cursor ? `&after=${cursor}` : ''}`);
      if (pageNumber++ % 25 === 12 && page.data.items.length > 0) ids.push(page.data.items[0].id);
      cursor = page.data.nextCursor;
    } while (cursor);
    const queries = [];
    for (const sort of ['schedule_desc', 'schedule_asc', 'newest', 'oldest']) {
      queries.push(`sort=${sort}&limit=50`);
      for (const id of ids) queries.push(`sort=${sort}&limit=50&after=${id}`, `sort=${sort}&limit=50&before=${id}`);
    }
    for (let i = 0; i < 20; i++) await call('GET', `${server.baseUrl}/posts?${queries[i]}`);
    const times = [];
    for (let round = 0; round < 3; round++) {
      for (const query of queries) {
        const t0 = performance.now();
        const page = await call('GET', `${server.baseUrl}/posts?${query}`);
        times.push(performance.now() - t0);
        if (page.data.items.length === 0 && !query.includes('before')) throw new Error(`empty page for ${query}`);
      }
    }
    const filtered = [];
    for (let i = 0; i < 60; i++) {
      const t0 = performance.now();
      await call('GET', `${server.baseUrl}/posts?limit=50&status=draft&sort=${i % 2 ? 'newest' : 'schedule_asc'}&after=${ids[i % ids.length]}`);
      filtered.push(performance.now() - t0);
    }
    return { posts: POSTS, startupMs: round(startupMs, 0), pages: times.length, p50: round(percentile(times, 50)), p95: round(percentile(times, 95)), filteredP50: round(percentile(filtered, 50)), filteredP95: round(percentile(filtered, 95)) };
  } finally {
    await server.stop();
  }
}

async function createsPerSecond(args, total, concurrency = 16) {
  const server = await serve(args);
  try {
    const body = (n) => ({ content: `created ${n}`, targets: [{ socialAccountId: DEMO_ACCOUNTS.photo }], mediaIds: [] });
    for (let i = 0; i < 200; i++) await call('POST', `${server.baseUrl}/posts`, body(-i));
    let next = 0;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < total) await call('POST', `${server.baseUrl}/posts`, body(next++));
      }),
    );
    const seconds = (performance.now() - t0) / 1000;
    return { creates: total, concurrency, seconds: round(seconds), perSecond: Math.round(total / seconds) };
  } finally {
    await server.stop();
  }
}

async function peakRssKiB(pid) {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? NaN);
}

async function uploadRss(dir) {
  const server = await serve(['--data', join(dir, 'upload-data')]);
  try {
    const MiB = 1024 * 1024;
    const sizeBytes = UPLOAD_MIB * MiB;
    const before = await peakRssKiB(server.pid);
    const ticket = await call('POST', `${server.baseUrl}/media/uploads`, { kind: 'video', contentType: 'video/mp4', sizeBytes, fileName: 'big.mp4' });
    const { partSizeBytes, partCount } = ticket.data.upload.multipart;
    const id = ticket.data.media.id;
    // A real MP4 (moov at the end) streamed part by part: header, zero padding, moov; never buffered whole.
    const { head, paddingBytes, tail } = mp4Layout({ durationSeconds: 600, videoCodec: 'avc1', audioCodec: 'mp4a', width: 1920, height: 1080, sizeBytes, moovAtEnd: true });
    const zeros = Buffer.alloc(MiB);
    function* bytes(start, end) {
      const pieces = [[0, head], [head.length, null], [head.length + paddingBytes, tail]];
      for (const [offset, buffer] of pieces) {
        const length = buffer ? buffer.length : paddingBytes;
        const from = Math.max(start, offset);
        const to = Math.min(end, offset + length);
        if (from >= to) continue;
        if (buffer) yield buffer.subarray(from - offset, to - offset);
        else for (let at = from; at < to; at += zeros.length) yield zeros.subarray(0, Math.min(zeros.length, to - at));
      }
    }
    const t0 = performance.now();
    for (let n = 1; n <= partCount; n++) {
      const start = (n - 1) * partSizeBytes;
      const size = Math.min(partSizeBytes, sizeBytes - start);
      const { url } = (await call('POST', `${server.baseUrl}/media/${id}/multipart`, { operation: 'sign', partNumber: n })).data;
      const body = Readable.from(bytes(start, start + size));
      const put = await request(url, { method: 'PUT', body, headers: { 'content-length': String(size) }, dispatcher: agent });
      await put.body.dump();
      if (put.statusCode !== 200) throw new Error(`part ${n}: ${put.statusCode}`);
    }
    await call('POST', `${server.baseUrl}/media/${id}/multipart`, { operation: 'complete' });
    const media = await call('POST', `${server.baseUrl}/media/${id}/complete`);
    const seconds = (performance.now() - t0) / 1000;
    const after = await peakRssKiB(server.pid);
    if (!media.data.sourceAvailable || media.data.durationSeconds !== 600) throw new Error(`upload did not complete as expected: ${JSON.stringify(media.data)}`);
    return { uploadMiB: UPLOAD_MIB, parts: partCount, seconds: round(seconds), peakRssBeforeMiB: round(before / 1024, 1), peakRssAfterMiB: round(after / 1024, 1) };
  } finally {
    await server.stop();
  }
}

const dir = await mkdtemp(join(tmpdir(), 'postsync-bench-'));
try {
  const results = {
    page: await pageTimes(dir),
    createsInMemory: await createsPerSecond([], 10_000),
    createsWithJournal: await createsPerSecond(['--data', join(dir, 'data')], 5_000),
    upload: await uploadRss(dir),
  };
  if (process.argv.includes('--json')) {
    process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
  } else {
    const { page, createsInMemory: mem, createsWithJournal: journal, upload } = results;
    console.log(`GET /posts at ${page.posts} posts (limit 50, 4 sorts, after/before deep in the list, ${page.pages} pages): p50 ${page.p50} ms, p95 ${page.p95} ms  (target p50 <= 5 ms)`);
    console.log(`GET /posts with status filter: p50 ${page.filteredP50} ms, p95 ${page.filteredP95} ms; startup with the 100k-post fixture ${page.startupMs} ms`);
    console.log(`creates in memory: ${mem.perSecond}/s (${mem.creates} creates, concurrency ${mem.concurrency})  (target >= 2000/s)`);
    console.log(`creates with --data: ${journal.perSecond}/s (${journal.creates} creates, concurrency ${journal.concurrency}, fsync group commit)  (target >= 500/s)`);
    console.log(`multipart upload of ${upload.uploadMiB} MiB in ${upload.parts} parts: ${upload.seconds} s; server peak RSS ${upload.peakRssBeforeMiB} MiB before, ${upload.peakRssAfterMiB} MiB after`);
  }
} finally {
  await agent.close();
  await rm(dir, { recursive: true, force: true });
}
