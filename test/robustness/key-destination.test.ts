import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { HostileApi } from '../helpers/hostile-api.js';
import { testdir } from '../helpers/testdir.js';

/**
 * Under CI the API key comes from a secret, and postsync.yaml comes from whoever opened the pull
 * request: the key only goes to a URL from the environment, or to an origin the environment allows.
 */

let emulator: TestEmulator;
let hostile: HostileApi;
beforeAll(async () => {
  emulator = await startTestEmulator();
  hostile = await HostileApi.start(emulator.baseUrl);
});
afterAll(async () => {
  await hostile.close();
  await emulator.close();
});

const KEY = 'demo-key';
const project = () => testdir({ 'postsync.yaml': `timezone: UTC\napi:\n  url: ${hostile.baseUrl}\n`, 'posts/.keep': '' });

describe('the API key and a URL from postsync.yaml', () => {
  it.each([{ CI: 'true' }, { GITHUB_ACTIONS: 'true' }])('under CI (%o), with POSTSYNC_API_URL empty, is refused before any request', async (ci) => {
    const dir = await project();
    hostile.seen.length = 0;
    const result = await runCli(['plan'], { cwd: dir, env: { ...ci, POSTSYNC_API_KEY: KEY, POSTSYNC_API_URL: '' } });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`Error: Refused to send POSTSYNC_API_KEY to ${hostile.origin}, the api.url of postsync.yaml`);
    expect(result.stderr).toContain('Set POSTSYNC_API_URL');
    expect(result.stderr).toContain(`POSTSYNC_API_URL_ALLOW=${hostile.origin}`);
    expect(result.stderr).not.toContain(KEY);
    expect(hostile.seen).toEqual([]);
  });

  it('under CI, goes to an origin POSTSYNC_API_URL_ALLOW lists', async () => {
    const dir = await project();
    hostile.seen.length = 0;
    const result = await runCli(['plan'], { cwd: dir, env: { CI: 'true', POSTSYNC_API_KEY: KEY, POSTSYNC_API_URL_ALLOW: `https://api.example.com, ${hostile.origin}/` } });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(hostile.seen.some((seen) => seen.authorized)).toBe(true);
  });

  it('under CI, a URL from POSTSYNC_API_URL is used as always', async () => {
    const dir = await testdir({ 'postsync.yaml': 'timezone: UTC\napi:\n  url: https://elsewhere.example/public/v1\n', 'posts/.keep': '' });
    const result = await runCli(['plan'], { cwd: dir, env: { CI: 'true', POSTSYNC_API_KEY: KEY, POSTSYNC_API_URL: hostile.baseUrl } });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  });

  it('outside CI, is used as before', async () => {
    const dir = await project();
    const result = await runCli(['plan'], { cwd: dir, env: { POSTSYNC_API_KEY: KEY } });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  });

  it('an entry of POSTSYNC_API_URL_ALLOW that is not an origin is a config error', async () => {
    const dir = await project();
    hostile.seen.length = 0;
    const result = await runCli(['plan'], { cwd: dir, env: { CI: 'true', POSTSYNC_API_KEY: KEY, POSTSYNC_API_URL_ALLOW: 'api.example.com' } });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('POSTSYNC_API_URL_ALLOW');
    expect(result.stderr).toContain('`api.example.com` is not an http:// or https:// origin');
    expect(hostile.seen).toEqual([]);
  });
});
