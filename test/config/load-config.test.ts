import { symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { InvalidConfigError } from '../../src/config/invalid-config-error.js';
import { loadConfig } from '../../src/config/load-config.js';
import { InputError } from '../../src/errors.js';
import { testdir } from '../helpers/testdir.js';

const KEY = 'psk_live_THIS-IS-THE-SECRET-0123456789';
const PHOTO = '6f1c2d6e-0a55-4c59-9d0f-3b8f5d1a7e01';

async function failure(promise: Promise<unknown>): Promise<InvalidConfigError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(InvalidConfigError);
  expect(error).toBeInstanceOf(InputError);
  return error as InvalidConfigError;
}

describe('loadConfig', () => {
  it('uses the defaults without a postsync.yaml', async () => {
    const root = await testdir();
    const config = await loadConfig({ cwd: root, env: {} });
    expect(config).toEqual({
      root,
      contentDir: join(root, 'posts'),
      snippetsDir: join(root, 'snippets'),
      prune: false,
      statePath: join(root, '.postsync/state.json'),
      stateHome: { kind: 'file' },
      timezone: 'UTC',
      accounts: {},
      rules: [],
      slots: {},
      vars: {},
      hashtags: {},
      api: { url: null, local: false, urlFrom: null, allowedOrigins: [], deadlineMs: null },
    });
    expect(config.api.key).toBeNull();
    expect(Object.isFrozen(config) && Object.isFrozen(config.api) && Object.isFrozen(config.accounts)).toBe(true);
  });

  it('reads the documented postsync.yaml (also as .yml, with BOM and CRLF)', async () => {
    const yaml = `api:\n  url: https://api.example.com/public/v1/\ncontent: content/social\nstate: .postsync/state.json\ntimezone: europe/berlin\naccounts:\n  brand-photo: ${PHOTO.toUpperCase()}\n`;
    const root = await testdir({ 'postsync.yml': `\uFEFF${yaml.replace(/\n/g, '\r\n')}` });
    const config = await loadConfig({ cwd: root, env: {} });
    expect(config).toMatchObject({
      contentDir: join(root, 'content/social'),
      timezone: 'Europe/Berlin',
      accounts: { 'brand-photo': PHOTO },
      api: { url: 'https://api.example.com/public/v1', local: false },
    });
  });

  it('lets the environment and flags override the API URL, flags last', async () => {
    const root = await testdir({ 'postsync.yaml': 'api:\n  url: https://file.example.com/public/v1\n' });
    const fromEnv = await loadConfig({ cwd: root, env: { POSTSYNC_API_URL: 'http://127.0.0.1:4010/public/v1', POSTSYNC_API_KEY: KEY } });
    expect(fromEnv.api.url).toBe('http://127.0.0.1:4010/public/v1');
    expect(fromEnv.api.urlFrom).toBe('environment');
    expect(fromEnv.api.key).toBe(KEY);
    expect((await loadConfig({ cwd: root, env: { POSTSYNC_API_URL: '' } })).api.urlFrom).toBe('file');
    const fromFlag = await loadConfig({ cwd: root, env: { POSTSYNC_API_URL: 'http://env.example.com' }, flags: { apiUrl: 'https://flag.example.com/x/public/v1' } });
    expect(fromFlag.api.url).toBe('https://flag.example.com/x/public/v1');
    expect(fromFlag.api.urlFrom).toBe('flag');
    const local = await loadConfig({ cwd: root, env: { POSTSYNC_API_URL: 'http://env.example.com' }, flags: { local: true } });
    expect(local.api).toMatchObject({ url: null, local: true });
    expect((await loadConfig({ cwd: root, env: { POSTSYNC_API_KEY: '' } })).api.key).toBeNull();
  });

  it('reads the origins POSTSYNC_API_URL_ALLOW allows and the deadline POSTSYNC_API_TIMEOUT_MS sets, and refuses bad values', async () => {
    const root = await testdir();
    const read = await loadConfig({ cwd: root, env: { POSTSYNC_API_URL_ALLOW: ' https://api.example.com/public/v1 ,http://127.0.0.1:4010,', POSTSYNC_API_TIMEOUT_MS: '2500' } });
    expect(read.api).toMatchObject({ allowedOrigins: ['https://api.example.com', 'http://127.0.0.1:4010'], deadlineMs: 2500 });
    const bad = await failure(loadConfig({ cwd: root, env: { POSTSYNC_API_URL_ALLOW: 'ftp://files.example.com', POSTSYNC_API_TIMEOUT_MS: '2.5s' } }));
    expect(bad.diagnostics.map((d) => [d.code, d.message])).toEqual([
      ['invalid-environment', 'POSTSYNC_API_URL_ALLOW: `ftp://files.example.com` is not an http:// or https:// origin'],
      ['invalid-environment', 'POSTSYNC_API_TIMEOUT_MS is not a whole number of milliseconds above 0'],
    ]);
    await failure(loadConfig({ cwd: root, env: { POSTSYNC_API_TIMEOUT_MS: '0' } }));
  });

  it('refuses an API URL without the /public/v1 version prefix up front, from the flag, the environment or the file', async () => {
    const root = await testdir({ 'postsync.yaml': 'api:\n  url: https://api.example.com/v1\n' });
    const flag = await failure(loadConfig({ cwd: root, env: {}, flags: { apiUrl: 'http://127.0.0.1:4010' } }));
    expect(flag.diagnostics).toEqual([
      {
        severity: 'error',
        code: 'invalid-api-url',
        message: "--api-url does not end in /public/v1, the API's version prefix",
        expected: 'a base URL such as https://api.example.com/public/v1',
        hint: 'Use http://127.0.0.1:4010/public/v1.',
      },
    ]);
    const env = await failure(loadConfig({ cwd: root, env: { POSTSYNC_API_URL: 'https://api.example.com/public/v1/posts' } }));
    expect(env.diagnostics).toMatchObject([{ code: 'invalid-api-url', message: expect.stringMatching(/^POSTSYNC_API_URL does not end in \/public\/v1/), hint: 'Add /public/v1 at the end of the URL.' }]);
    const file = await failure(loadConfig({ cwd: root, env: {} }));
    expect(file.diagnostics).toMatchObject([{ code: 'invalid-api-url', file: 'postsync.yaml', line: 2, column: 8, message: expect.stringContaining('`api.url` does not end in /public/v1') }]);
    for (const good of ['http://127.0.0.1:4010/public/v1', 'http://127.0.0.1:4010/public/v1/', 'https://example.com/gateway/public/v1']) {
      expect((await loadConfig({ cwd: root, env: {}, flags: { apiUrl: good } })).api.url, good).toBe(good.replace(/\/$/, ''));
    }
  });

  it('keeps the API key out of inspect, JSON, spreads and errors', async () => {
    const root = await testdir();
    const config = await loadConfig({ cwd: root, env: { POSTSYNC_API_KEY: KEY } });
    expect(config.api.key).toBe(KEY);
    expect(inspect(config, { depth: 10 })).not.toContain(KEY);
    expect(inspect(config, { depth: 10, showHidden: true })).not.toContain(KEY);
    expect(JSON.stringify(config)).not.toContain(KEY);
    expect(JSON.stringify({ ...config.api })).not.toContain(KEY);
    const bad = await failure(loadConfig({ cwd: root, env: { POSTSYNC_API_KEY: KEY, POSTSYNC_API_URL: `https://user:${KEY}@example.com` } }));
    expect(`${bad.message} ${bad.hint} ${inspect(bad)} ${JSON.stringify(bad.diagnostics)}`).not.toContain(KEY);
    expect(bad.diagnostics).toMatchObject([{ code: 'invalid-api-url', message: 'POSTSYNC_API_URL must not contain a user name or password' }]);
  });

  it('lists every problem with its line and column, with did-you-mean', async () => {
    const root = await testdir({
      'postsync.yaml': [
        'api:',
        '  url: ftp://example.com',
        '  key: do-not-put-it-here',
        'contnet: posts',
        'state: ../outside/state.json',
        'timezone: Europe/Berln',
        'accounts:',
        '  brand-photo: not-a-uuid',
        '  "bad alias!": 6f1c2d6e-0a55-4c59-9d0f-3b8f5d1a7e01',
        '',
      ].join('\n'),
    });
    const error = await failure(loadConfig({ cwd: root, env: {} }));
    expect(error.diagnostics.map((d) => `${d.file}:${d.line}:${d.column} ${d.code}`)).toEqual([
      'postsync.yaml:2:8 invalid-api-url',
      'postsync.yaml:3:3 unknown-field',
      'postsync.yaml:4:1 unknown-field',
      'postsync.yaml:5:8 path-outside-project',
      'postsync.yaml:6:11 unknown-timezone',
      'postsync.yaml:8:16 invalid-value',
      'postsync.yaml:9:3 invalid-key',
    ]);
    expect(error.diagnostics[1]!.hint).toMatch(/POSTSYNC_API_KEY/);
    expect(error.diagnostics[2]!.hint).toBe('did you mean `content`?');
    expect(error.diagnostics[4]!.hint).toBe('did you mean `Europe/Berlin`?');
    expect(error.diagnostics[5]!.expected).toMatch(/uuid/);
    expect(error.message).toContain('postsync.yaml:4:1: unknown field `contnet`');
    expect(error.message).not.toContain('do-not-put-it-here');
  });

  it('reports YAML syntax errors and both file spellings', async () => {
    const broken = await testdir({ 'postsync.yaml': 'content: posts\naccounts: [a\n' });
    expect((await failure(loadConfig({ cwd: broken, env: {} }))).diagnostics[0]).toMatchObject({ code: 'yaml-syntax', file: 'postsync.yaml', line: expect.any(Number) });
    const both = await testdir({ 'postsync.yaml': '', 'postsync.yml': '' });
    expect((await failure(loadConfig({ cwd: both, env: {} }))).diagnostics).toMatchObject([{ code: 'config-ambiguous' }]);
    const whole = await testdir({ 'postsync.yaml': 'content: .\n' });
    expect((await loadConfig({ cwd: whole, env: {} })).contentDir).toBe(whole);
    const stateIsRoot = await testdir({ 'postsync.yaml': 'state: .\n' });
    expect((await failure(loadConfig({ cwd: stateIsRoot, env: {} }))).diagnostics).toMatchObject([{ code: 'path-outside-project', line: 1 }]);
    const empty = await testdir({ 'postsync.yaml': '# nothing yet\n' });
    expect((await loadConfig({ cwd: empty, env: {} })).timezone).toBe('UTC');
  });

  it('takes the snippets folder from `snippets:`, a folder below the project root that is not hidden', async () => {
    const custom = await testdir({ 'postsync.yaml': 'snippets: shared/texts\n' });
    expect((await loadConfig({ cwd: custom, env: {} })).snippetsDir).toBe(join(custom, 'shared/texts'));
    for (const value of ['..', '../elsewhere', '.', '.git', 'shared/.private']) {
      const root = await testdir({ 'postsync.yaml': `snippets: "${value}"\n` });
      const error = await failure(loadConfig({ cwd: root, env: {} }));
      expect(error.diagnostics, value).toMatchObject([{ code: value.startsWith('..') || value === '.' ? 'path-outside-project' : 'snippets-folder-hidden', file: 'postsync.yaml', line: 1, column: 11 }]);
    }
  });

  it('refuses a postsync.yaml over 1 MiB before parsing it, and stops reading one that never ends', async () => {
    const root = await testdir({ 'postsync.yaml': `content: [unclosed\n${'#'.repeat(2 * 1024 * 1024)}\n` });
    const error = await failure(loadConfig({ cwd: root, env: {} }));
    expect(error.diagnostics).toEqual([
      {
        severity: 'error',
        code: 'file-too-large',
        message: 'postsync.yaml is too large for a configuration file',
        file: 'postsync.yaml',
        expected: 'at most 1 MiB',
        found: '2.0 MiB',
        hint: 'postsync.yaml holds settings only; keep long texts in snippet files.',
      },
    ]);
    const endless = await testdir();
    await symlink('/dev/zero', join(endless, 'postsync.yml'));
    expect((await failure(loadConfig({ cwd: endless, env: {} }))).diagnostics).toMatchObject([{ code: 'file-too-large', file: 'postsync.yml', found: 'more than 1 MiB' }]);
  });
});
