// The emulator as a separate `postsync serve` process, so a measured process is postsync alone.
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { request } from 'undici';
import { bin } from './paths.mjs';

/**
 * Starts `postsync serve --port 0` (with `fixture`, an object written to `dir`, when given) and
 * resolves once it prints its base URL and control token. `requests()` reads the emulator's request log.
 */
export async function startServe({ dir, fixture, args = [], command = [bin, 'serve'] } = {}) {
  const extra = [...args];
  if (fixture) {
    const file = join(dir, `fixture-${process.pid}-${Date.now()}.json`);
    await writeFile(file, JSON.stringify(fixture));
    extra.push('--fixture', file);
  }
  const child = spawn(process.execPath, [...command, '--port', '0', ...extra], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout });
  // The first two lines: `listening on <baseUrl>`, then `control token: <token>`.
  const [line, tokenLine] = await new Promise((resolve, reject) => {
    const read = [];
    lines.on('line', (text) => {
      read.push(text);
      if (read.length === 2) resolve(read);
    });
    child.once('exit', (code) => reject(new Error(`the emulator exited with ${code} before listening`)));
  });
  const baseUrl = /listening on (\S+)/.exec(line)?.[1];
  if (!baseUrl) throw new Error(`unexpected first line from the emulator: ${line}`);
  const controlToken = /control token: (\S+)/.exec(tokenLine)?.[1];
  if (!controlToken) throw new Error(`unexpected second line from the emulator: ${tokenLine}`);
  const origin = new URL(baseUrl).origin;
  return {
    baseUrl,
    origin,
    /** What a state-changing control request sends as x-postsync-token. */
    controlToken,
    pid: child.pid,
    /** Every logged request since the last clear: { method, path, status, ... }. */
    async requests() {
      const response = await request(`${origin}/_emulator/requests`);
      const body = await response.body.json();
      return body.data ?? body;
    },
    async clearRequests() {
      const response = await request(`${origin}/_emulator/requests`, { method: 'DELETE', headers: { 'x-postsync-token': controlToken } });
      await response.body.dump();
    },
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The demo project (key `demo-key`, one account per platform) with optional extra settings. */
export function demoProjectFixture(DEMO_ACCOUNTS, DEMO_API_KEY, extra = {}) {
  return {
    projects: [
      {
        id: 'demo',
        keys: [{ token: DEMO_API_KEY, permissions: ['accounts-read', 'posts-read', 'posts-write', 'posts-publish', 'posts-delete', 'media-write'] }],
        accounts: [
          { id: DEMO_ACCOUNTS.photo, platform: 'photoC', handle: '@demo.photo' },
          { id: DEMO_ACCOUNTS.video, platform: 'vidA', handle: '@demo.video' },
          { id: DEMO_ACCOUNTS.short, platform: 'shortB', handle: '@demo.short' },
        ],
        ...extra,
      },
    ],
  };
}

/** Requests that change something on the service (storage PUTs included). */
export const isWrite = (entry) => entry.method !== 'GET' && entry.method !== 'HEAD';
