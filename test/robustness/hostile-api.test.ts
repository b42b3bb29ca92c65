import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../src/emulator/index.js';
import { runCli, requireBuild } from '../cli/reporting-support.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { HostileApi, type Misbehaviour } from '../helpers/hostile-api.js';
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

async function plan(hostile: HostileApi, env: Record<string, string> = {}) {
  const dir = await testdir({ 'postsync.yaml': CONFIG, 'posts/.keep': '' });
  return runCli(['--api-url', hostile.baseUrl, 'plan'], { cwd: dir, env });
}

describe('one call', () => {
  it('a listing that fails while the files are still being read is one clean error, never an unhandled rejection', async () => {
    await withHostile(
      (req, res, url) => isListing(req, url) && answerJson(res, { nope: true }),
      async (hostile) => {
        const result = await plan(hostile);
        expect(result.stderr).toBe('Error: Listing posts: the API answered a page without an items array.\n  Check that api.url / POSTSYNC_API_URL points at the Public Posting API.\n');
        expect(result.code).toBe(1);
      },
    );
  }, 60_000);
});
