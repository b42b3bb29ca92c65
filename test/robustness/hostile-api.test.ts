import type { ServerResponse } from 'node:http';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../src/emulator/index.js';
import { runCli, requireBuild } from '../cli/reporting-support.js';
import { uploadMedia } from '../emulator/support.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { HostileApi, streamRepeated, type Misbehaviour } from '../helpers/hostile-api.js';
import { makePng } from '../helpers/media-generators/index.js';
import { testdir } from '../helpers/testdir.js';

/**
 * The remote side is not trusted to end what it sends: a hostile API (a real emulator behind a
 * server of the test's that misbehaves on some routes) meets bounds on pages, answer bytes, the
 * time of one call, and media downloads. Every refusal is one clean error and exit 1.
 */

beforeAll(requireBuild);

let emulator: TestEmulator;
beforeAll(async () => {
  emulator = await startTestEmulator();
});
afterAll(async () => {
  await emulator.close();
});

const CONFIG = `timezone: UTC\naccounts:\n  photo: ${DEMO_ACCOUNTS.photo}\n`;
const MiB = 1024 * 1024;
/** A line of a stack trace: never printed without POSTSYNC_DEBUG. */
const STACK_LINE = /^\s+at /m;

async function withHostile<T>(misbehave: Misbehaviour, run: (hostile: HostileApi) => Promise<T>, rewriteJson?: (data: unknown) => unknown): Promise<T> {
  await emulator.reset();
  const hostile = await HostileApi.start(emulator.baseUrl, { misbehave, ...(rewriteJson === undefined ? {} : { rewriteJson }) });
  try {
    return await run(hostile);
  } finally {
    await hostile.close();
  }
}

function answerJson(res: ServerResponse, data: unknown): true {
  const body = JSON.stringify({ data });
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
  return true;
}

const isListing = (req: { method?: string }, url: URL) => req.method === 'GET' && url.pathname === '/public/v1/posts';

/** A listed post: only what a listing reads of it; every one created in the same instant, so two chains never meet. */
const listedPost = (id: string) => ({ id, status: 'draft', content: 'x', scheduledAt: null, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z', targets: [], media: [] });

async function plan(hostile: HostileApi, env: Record<string, string> = {}) {
  const dir = await testdir({ 'postsync.yaml': CONFIG, 'posts/.keep': '' });
  return runCli(['--api-url', hostile.baseUrl, 'plan'], { cwd: dir, env });
}

describe('listing pages', () => {
  it('pages past the page cap stop the listing with an error naming the endpoint', async () => {
    const pages = (hostile: HostileApi) => hostile.seen.filter((seen) => seen.url.startsWith('/public/v1/posts?')).length;
    await withHostile(
      (req, res, url) => {
        if (!isListing(req, url)) return false;
        // 3,000 pages of one post each: past the cap of 1,000, yet an end for a client without one.
        const n = Number(url.searchParams.get('after')?.slice(1) ?? 0);
        return answerJson(res, { items: [listedPost(`p${n}`)], nextCursor: n + 1 < 3000 ? `c${n + 1}` : null });
      },
      async (hostile) => {
        const result = await plan(hostile);
        expect(result.stderr).toContain('Error: Listing posts (GET /posts): the API gave more than 1000 pages');
        expect(result.stderr).not.toMatch(STACK_LINE);
        expect(result.code).toBe(1);
        // Two listings (drafts, scheduled), each from both ends: a chain stops at the cap.
        expect(pages(hostile)).toBeLessThanOrEqual(4 * 1000 + 4);
      },
    );
  }, 120_000);

  it('a cursor given twice is an error naming the endpoint', async () => {
    await withHostile(
      (req, res, url) => isListing(req, url) && answerJson(res, { items: [listedPost(`p${url.searchParams.get('after') ?? 0}`)], nextCursor: 'again' }),
      async (hostile) => {
        const result = await plan(hostile);
        expect(result.stderr).toContain('Error: Listing posts (GET /posts): the API returned the cursor "again" twice');
        expect(result.stderr).not.toMatch(STACK_LINE);
        expect(result.code).toBe(1);
      },
    );
  }, 60_000);
});

describe('one call', () => {
  it('an answer over 32 MiB is cut off with an error naming the endpoint', async () => {
    let streamed: Promise<{ sentBytes: number; cut: boolean }> | undefined;
    await withHostile(
      (req, res, url) => {
        if (!isListing(req, url) || url.searchParams.get('status') !== 'draft') return false;
        res.writeHead(200, { 'content-type': 'application/json' });
        // Valid JSON however far it is read: whitespace, then the end of the page.
        streamed = streamRepeated(res, { head: '{"data":{"items":[],"nextCursor":null', chunk: Buffer.alloc(64 * 1024, ' '), limitBytes: 40 * MiB, tail: '}}' });
        return true;
      },
      async (hostile) => {
        const result = await plan(hostile);
        expect(result.stderr).toContain('Error: Listing posts failed: the answer of GET /public/v1/posts is larger than 32 MiB');
        expect(result.stderr).not.toMatch(STACK_LINE);
        expect(result.code).toBe(1);
        const { sentBytes, cut } = await streamed!;
        expect(cut).toBe(true);
        expect(sentBytes).toBeLessThan(40 * MiB);
        // Not asked again: a second attempt would read as much again.
        expect(hostile.seen.filter((seen) => seen.url.includes('status=draft'))).toHaveLength(1);
      },
    );
  }, 60_000);

  it('a drip is cut by the deadline of one call (POSTSYNC_API_TIMEOUT_MS)', async () => {
    const timers = new Set<NodeJS.Timeout>();
    await withHostile(
      (req, res, url) => {
        if (!isListing(req, url)) return false;
        res.writeHead(200, { 'content-type': 'application/json' });
        // A whole page, one byte every 250 ms: each byte comes long before any idle timeout.
        const bytes = [...Buffer.from('{"data":{"items":[],"nextCursor":null}}')];
        const timer = setInterval(() => (bytes.length > 0 ? res.write(Buffer.from([bytes.shift()!])) : res.end()), 250);
        timers.add(timer);
        res.on('close', () => clearInterval(timer));
        return true;
      },
      async (hostile) => {
        const result = await plan(hostile, { POSTSYNC_API_TIMEOUT_MS: '3000' });
        expect(result.stderr).toContain('Error: Listing posts failed: GET /public/v1/posts did not complete within 3 s');
        expect(result.stderr).toContain('POSTSYNC_API_TIMEOUT_MS');
        expect(result.stderr).not.toMatch(STACK_LINE);
        expect(result.code).toBe(1);
      },
    );
    for (const timer of timers) clearInterval(timer);
  }, 90_000);

  it('a listing that fails while the files are still being read is one clean error, never an unhandled rejection', async () => {
    await withHostile(
      (req, res, url) => isListing(req, url) && answerJson(res, { nope: true }),
      async (hostile) => {
        const result = await plan(hostile);
        expect(result.stderr).toBe('Error: Listing posts (GET /posts): the API answered a page without an items array.\n  Check that api.url / POSTSYNC_API_URL points at the Public Posting API.\n');
        expect(result.code).toBe(1);
      },
    );
  }, 60_000);
});

describe('media downloads', () => {
  const photo = makePng({ width: 40, height: 40, rgb: { r: 10, g: 200, b: 30 } });

  /** Adds the declared `sizeBytes` to every media of a forwarded answer (the emulator sends none). */
  const declaringSize = (sizeBytes: number) => (data: unknown): unknown => {
    const visit = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(visit);
      if (value === null || typeof value !== 'object') return value;
      const entries = Object.entries(value).map(([key, inner]) => [key, visit(inner)] as const);
      const object = Object.fromEntries(entries) as Record<string, unknown>;
      return 'sourceAvailable' in object ? { ...object, sizeBytes } : object;
    };
    return visit(data);
  };

  /** Serves every storage read as endless bytes (up to 16 MiB, so a run that follows it still ends). */
  function endlessStorage(streams: Promise<{ sentBytes: number; cut: boolean }>[], options: { on: () => boolean } = { on: () => true }): Misbehaviour {
    return (req, res, url) => {
      if (req.method !== 'GET' || !url.pathname.startsWith('/_storage/') || !options.on()) return false;
      res.writeHead(200, { 'content-type': 'image/png' });
      streams.push(streamRepeated(res, { chunk: Buffer.concat([photo, Buffer.alloc(64 * 1024 - photo.length, 7)]), limitBytes: 16 * MiB }));
      return true;
    };
  }

  it('import stops a download past its declared size and skips its post, naming the media', async () => {
    const streams: Promise<{ sentBytes: number; cut: boolean }>[] = [];
    await withHostile(
      endlessStorage(streams),
      async (hostile) => {
        const mediaId = await uploadMedia(emulator, photo, { kind: 'image', contentType: 'image/png', fileName: 'harbour.png' });
        const created = await emulator.api('POST', '/posts', { body: { content: 'A photo', mediaIds: [mediaId], targets: [{ socialAccountId: DEMO_ACCOUNTS.photo }] } });
        expect(created.status).toBe(201);
        const dir = await testdir({ 'postsync.yaml': CONFIG });
        const result = await runCli(['import', '--api-url', hostile.baseUrl, '--json'], { cwd: dir });
        expect(result.stderr).not.toMatch(STACK_LINE);
        expect(result.code).toBe(0);
        const report = JSON.parse(result.stdout);
        expect(report.imported).toEqual([]);
        expect(report.skipped.map((entry: any) => entry.reason).join('\n')).toContain(`media ${mediaId} is larger than its declared size of ${photo.length} bytes`);
        expect(streams).toHaveLength(1);
        const { sentBytes, cut } = await streams[0]!;
        expect(cut).toBe(true);
        expect(sentBytes).toBeLessThan(16 * MiB);
      },
      declaringSize(photo.length),
    );
  }, 60_000);

  it('adopt hashing stops a download past the size of every local media, declared size or not', async () => {
    const streams: Promise<{ sentBytes: number; cut: boolean }>[] = [];
    const storage = { hostile: false };
    await withHostile(
      endlessStorage(streams, { on: () => storage.hostile }),
      async (hostile) => {
        const post = `---\ntargets: [photo]\nmedia: [media/harbour.png]\n---\nA photo\n`;
        const dir = await testdir({ 'postsync.yaml': CONFIG, 'posts/a.md': post, 'media/harbour.png': photo });
        const api = ['--api-url', hostile.baseUrl];
        const applied = await runCli([...api, 'apply', '--yes'], { cwd: dir });
        expect(applied.stderr).toBe('');
        expect(applied.code).toBe(0);
        // The state lost: the post is an orphan its file could adopt, once its media is known by content.
        await rm(join(dir, '.postsync'), { recursive: true });
        storage.hostile = true;
        const planned = await runCli([...api, 'plan'], { cwd: dir });
        expect(planned.stderr).not.toMatch(STACK_LINE);
        expect(planned.code).toBe(0);
        // Its media unreadable (the download stopped), the orphan is not certainly the file's post: held, never a second post.
        expect(planned.stdout).toContain('Plan: 0 to create, 0 to update, 0 to delete. 1 blocked.');
        expect(planned.stdout).toContain('differs in media');
        expect(streams).toHaveLength(1);
        const { sentBytes, cut } = await streams[0]!;
        expect(cut).toBe(true);
        expect(sentBytes).toBeLessThan(16 * MiB);
      },
    );
  }, 60_000);
});
