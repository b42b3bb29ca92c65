import { readdir, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_API_KEY } from '../../src/emulator/index.js';
import { runCli } from '../helpers/cli.js';
import { useEmulator } from '../helpers/emulator.js';
import { VariantProxy } from '../helpers/variant-proxy.js';
import { demoProject, post } from './project.js';

/**
 * Posts are checked against their accounts' rules as the remote gives them on each run, whatever
 * the reading memo in `.postsync/cache` keeps: when the rules change, the next plan shows the new
 * problem, and a plan with the memo says exactly what one without it says.
 */
const emulator = useEmulator();
/** Several CLI runs per test: generous, it only catches a hung CLI. */
const TIMEOUT_MS = 120_000;
let proxy: VariantProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
});

const planIn = (dir: string, baseUrl: string, ...args: string[]) => runCli(['--api-url', baseUrl, 'plan', ...args], { cwd: dir, env: { POSTSYNC_API_KEY: DEMO_API_KEY } });

/** A remote whose accounts take captions of at most 10 characters. */
const shortCaptions = {
  name: 'captions of 10 characters',
  rewrite: (exchange: { path: string }, data: unknown) => {
    if (exchange.path.endsWith('/capabilities')) (data as { rules: { caption: { maxLength: number } } }).rules.caption.maxLength = 10;
    return data;
  },
};

describe('a change of an account\'s rules on the remote', () => {
  it('shows its new problem on the next plan, with or without the memo alike', async () => {
    const api = emulator();
    const dir = await demoProject({
      'launch.md': post({ body: 'We launch our new product on Monday.' }),
      'teaser.md': post({ body: 'Soon.', targets: '[short]', media: '[media/teaser.mp4]' }),
    });
    // Long unchanged: each file's stamp vouches for its bytes, so the memo keeps its reading.
    const long = new Date('2026-01-01T00:00:00Z');
    for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
      if (entry.isFile()) await utimes(join(entry.parentPath, entry.name), long, long);
    }
    const first = await planIn(dir, api.baseUrl);
    expect(first.code).toBe(0);
    expect(first.stdout).not.toContain('caption');
    expect(await planIn(dir, api.baseUrl)).toEqual(first);

    proxy = await VariantProxy.start(api.baseUrl, shortCaptions);
    const changed = await planIn(dir, proxy.baseUrl);
    expect(changed.stdout + changed.stderr).toMatch(/posts\/launch\.md.*caption/s);
    expect(changed.stdout + changed.stderr).not.toMatch(/posts\/teaser\.md.*caption/s);
    expect(await planIn(dir, proxy.baseUrl)).toEqual(changed);
    expect(await planIn(dir, proxy.baseUrl, '--no-cache')).toEqual(changed);
    expect(await planIn(dir, proxy.baseUrl, '--json')).toEqual(await planIn(dir, proxy.baseUrl, '--json', '--no-cache'));

    // Back to the first rules: the problem is gone again.
    expect(await planIn(dir, api.baseUrl)).toEqual(first);
  }, TIMEOUT_MS);
});
