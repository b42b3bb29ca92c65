import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, type ClientEvent } from '../../src/api/index.js';
import { ALL_PERMISSIONS, type Permission } from '../../src/api/types.js';
import { loadConfig } from '../../src/config/load-config.js';
import { DEMO_ACCOUNTS, type Fixture } from '../../src/emulator/index.js';
import { demoProject, post } from '../e2e/project.js';
import { CLI, runCli, startCli, type CliResult } from '../helpers/cli.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { REFUSED_API_URL } from '../helpers/refused-url.js';
import { testdir } from '../helpers/testdir.js';

/**
 * The API key never shows: every registered command, in success and in every failure mode
 * (paused key 403, unknown key 401, missing permission, chaos with POSTSYNC_DEBUG=1, unreachable
 * API, key pasted into the URL), is run with a recognisable key, and its stdout, stderr, every file
 * under the project, the emulator's request log, the errors and events of the client, and the
 * output and data of `postsync serve` are searched for the key in every encoding it could leak in.
 */
const CANARY = 'sk-live-SECRET-canary-1234567890+/=';

/** The key as it could appear: raw, a telling fragment, URL-encoded, base64/base64url at any byte alignment, hex. */
function leakForms(secret: string): { form: string; bytes: Buffer }[] {
  const raw = Buffer.from(secret);
  const forms = [
    { form: 'raw', text: secret },
    { form: 'fragment', text: 'SECRET-canary-1234567890' },
    { form: 'fragment, lower case', text: 'secret-canary-1234567890' },
    { form: 'URL-encoded', text: encodeURIComponent(secret) },
    { form: 'hex', text: raw.toString('hex') },
    { form: 'hex bytes (Buffer inspect)', text: raw.subarray(0, 12).toString('hex').replace(/(..)(?!$)/g, '$1 ') },
  ];
  for (const encoding of ['base64', 'base64url'] as const) {
    for (const offset of [0, 1, 2]) {
      // Drop the groups that mix in the bytes around the key: what is left depends on the key alone.
      const encoded = Buffer.concat([Buffer.alloc(offset), raw]).toString(encoding).replace(/=+$/, '');
      forms.push({ form: `${encoding} at offset ${offset}`, text: encoded.slice(offset === 0 ? 0 : 4, -4) });
    }
  }
  return forms.map(({ form, text }) => ({ form, bytes: Buffer.from(text) }));
}
const FORMS = leakForms(CANARY);

/** Which forms of the key occur in `haystack` (empty: no leak). */
function leaks(haystack: string | Buffer): string[] {
  const bytes = typeof haystack === 'string' ? Buffer.from(haystack) : haystack;
  return FORMS.filter(({ bytes: form }) => bytes.includes(form)).map(({ form }) => form);
}

function expectNoLeak(where: string, haystack: string | Buffer): void {
  expect(leaks(haystack), `the API key leaked into ${where}`).toEqual([]);
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

async function expectNoLeakInFiles(dir: string): Promise<number> {
  const files = await filesUnder(dir);
  for (const file of files) expectNoLeak(file, await readFile(file));
  return files.length;
}

function fixture(options: { canary: 'full' | 'paused' | 'read-only' | 'absent' }): Fixture {
  const permissions: Permission[] = options.canary === 'read-only' ? ['accounts-read', 'posts-read'] : [...ALL_PERMISSIONS];
  const keys = options.canary === 'absent' ? [{ token: 'someone-elses-key', permissions }] : [{ token: CANARY, permissions, paused: options.canary === 'paused' }];
  return {
    projects: [
      {
        id: 'acme',
        keys,
        accounts: [
          { id: DEMO_ACCOUNTS.photo, platform: 'photoC', handle: '@acme.photo' },
          { id: DEMO_ACCOUNTS.video, platform: 'vidA', handle: '@acme.video' },
          { id: DEMO_ACCOUNTS.short, platform: 'shortB', handle: '@acme.short' },
        ],
      },
    ],
  };
}

interface Scenario {
  command: string;
  args: string[];
  /** Also run in the failure modes (the others only where everything works). */
  everyMode: boolean;
  /** A command that runs until stopped: SIGINT once its output matches (or it exits by itself). */
  stopWhen?: RegExp;
}

/** Every command as a user runs it; the plan file is inside the project, so it is searched too. */
const SCENARIOS: Scenario[] = [
  { command: 'plan', args: ['plan', '--out', 'plan.json'], everyMode: true },
  { command: 'plan', args: ['plan', '--json'], everyMode: true },
  { command: 'plan', args: ['plan', '--markdown'], everyMode: false },
  { command: 'validate', args: ['validate'], everyMode: true },
  { command: 'validate', args: ['validate', '--json'], everyMode: false },
  { command: 'status', args: ['status'], everyMode: true },
  { command: 'accounts', args: ['accounts'], everyMode: true },
  { command: 'accounts', args: ['accounts', '--json'], everyMode: false },
  { command: 'whoami', args: ['whoami'], everyMode: true },
  { command: 'whoami', args: ['whoami', '--json'], everyMode: false },
  { command: 'analytics', args: ['analytics'], everyMode: true },
  { command: 'import', args: ['import', '--dry-run'], everyMode: true },
  { command: 'watch', args: ['watch'], everyMode: true, stopWhen: /Plan:|No changes|error/i },
  { command: 'apply', args: ['apply', '--yes'], everyMode: true },
  { command: 'apply', args: ['apply', '--yes', '--json'], everyMode: false },
  // After the apply the saved plan is stale (exit 3) or, where planning failed, missing (exit 1).
  { command: 'apply', args: ['apply', '--yes', 'plan.json'], everyMode: true },
  { command: 'status', args: ['status', '--json'], everyMode: false },
  { command: 'analytics', args: ['analytics', '--format', 'json'], everyMode: false },
  // Lists folders and secret names only; talks to no API.
  { command: 'calendars', args: ['calendars', '--json'], everyMode: false },
  // Prints the issue it would write (no GitHub token): from files that do not exist, so as a failed check.
  { command: 'health-issue', args: ['health-issue', '--plan', 'missing.json', '--plan-exit', '1', '--status', 'missing.json', '--status-exit', '1', '--print'], everyMode: false },
  // The merge driver talks to no API: it merges the state file with itself, after the apply wrote it.
  { command: 'state', args: ['state', 'merge', '.postsync/state.json', '.postsync/state.json', '.postsync/state.json'], everyMode: false },
  // The page, its feed and (with no API) the statuses from the state: all files in the project.
  { command: 'calendar', args: ['calendar', '--out', 'calendar-page', '--ics', 'calendar.ics'], everyMode: true },
  { command: 'watch', args: ['watch', '--calendar'], everyMode: false, stopWhen: /Calendar: http|error/i },
  // init talks to no API; the files it writes are searched with the rest of the project.
  { command: 'init', args: ['init', '--dir', 'new-calendar'], everyMode: false },
];
/** Commands with their own test below (serve), or that only print help. */
const COVERED_ELSEWHERE = new Set(['serve', 'help']);

/** The commands `postsync --help` lists: the ones registered in cli/registry.ts right now. */
async function registeredCommands(): Promise<string[]> {
  const help = await runCli(['--help'], { cwd: process.cwd() });
  const section = help.stdout.split(/^Commands:$/m)[1] ?? '';
  return [...section.matchAll(/^ {2}(\S+)/gm)].map((match) => match[1]!);
}

const LONG_RUNNING_LIMIT_MS = 20_000;

async function runScenario(scenario: Scenario, apiUrl: string, dir: string): Promise<CliResult> {
  const args = ['--api-url', apiUrl, ...scenario.args];
  const options = { cwd: dir, env: { POSTSYNC_API_KEY: CANARY, POSTSYNC_DEBUG: '1' } };
  const { stopWhen } = scenario;
  if (!stopWhen) return runCli(args, options);
  const run = startCli(args, options);
  let seen = '';
  const stop = () => run.child.kill('SIGINT');
  const timer = setTimeout(stop, LONG_RUNNING_LIMIT_MS);
  const watchOutput = (chunk: string) => {
    seen += chunk;
    if (stopWhen.test(seen)) stop();
  };
  run.child.stdout!.on('data', watchOutput);
  run.child.stderr!.on('data', watchOutput);
  const result = await run.done;
  clearTimeout(timer);
  return result;
}

interface Mode {
  name: string;
  /** What `--api-url` points at. */
  apiUrl: () => string;
  emulator?: () => TestEmulator;
  /** Which scenarios run: every one, those marked `everyMode` (default), or these commands' `everyMode` ones. */
  scenarios?: 'all' | string[];
}

const emulators: Record<string, TestEmulator> = {};
const projects: Record<string, string> = {};
let registered: string[] = [];
/** Runs searched per mode, printed at the end (the figure for the issue). */
const checked: { mode: string; runs: number }[] = [];

const MODES: Mode[] = [
  { name: 'everything works', apiUrl: () => emulators.ok!.baseUrl, emulator: () => emulators.ok!, scenarios: 'all' },
  { name: 'paused key (403)', apiUrl: () => emulators.paused!.baseUrl, emulator: () => emulators.paused! },
  { name: 'unknown key (401)', apiUrl: () => emulators.unknown!.baseUrl, emulator: () => emulators.unknown! },
  { name: 'missing permission (read-only key)', apiUrl: () => emulators.readOnly!.baseUrl, emulator: () => emulators.readOnly! },
  { name: 'chaos 503/500/reset with POSTSYNC_DEBUG=1', apiUrl: () => emulators.chaos!.baseUrl, emulator: () => emulators.chaos! },
  { name: 'unreachable API', apiUrl: () => REFUSED_API_URL },
  // Refused while reading the configuration, before any command-specific code: a few commands suffice.
  { name: 'key pasted into the API URL', apiUrl: () => `${emulators.ok!.origin.replace('http://', `http://user:${encodeURIComponent(CANARY)}@`)}/public/v1`, scenarios: ['plan', 'apply', 'whoami'] },
  { name: 'key in the API URL query', apiUrl: () => `${emulators.ok!.baseUrl}?key=${encodeURIComponent(CANARY)}`, scenarios: ['plan', 'apply', 'whoami'] },
];

beforeAll(async () => {
  registered = await registeredCommands();
  const started = await Promise.all([
    startTestEmulator({ fixture: fixture({ canary: 'full' }) }),
    startTestEmulator({ fixture: fixture({ canary: 'paused' }) }),
    startTestEmulator({ fixture: fixture({ canary: 'absent' }) }),
    startTestEmulator({ fixture: fixture({ canary: 'read-only' }) }),
    startTestEmulator({ fixture: fixture({ canary: 'full' }) }),
  ]);
  [emulators.ok, emulators.paused, emulators.unknown, emulators.readOnly, emulators.chaos] = started;
  await emulators.chaos!.setFaults('rate=0.3,seed=11,kinds=503+500+reset');
  // Projects are made here, not inside the concurrent tests (testdir's cleanup is per running test).
  for (const mode of MODES) {
    projects[mode.name] = await demoProject({
      'launch.md': post({ body: 'We launch on Monday.' }),
      'teaser.md': post({ body: 'A first look.', targets: '[short]', media: '[media/teaser.mp4]' }),
    });
  }
});
afterAll(async () => {
  await Promise.all(Object.values(emulators).map((emulator) => emulator.close()));
  if (checked.length > 0) console.log(`secrets: ${checked.reduce((sum, entry) => sum + entry.runs, 0)} CLI runs searched (${checked.map((entry) => `${entry.mode}: ${entry.runs}`).join('; ')})`);
});

describe('the API key never appears', () => {
  it('every registered command has a scenario here', () => {
    const missing = registered.filter((command) => !COVERED_ELSEWHERE.has(command) && !SCENARIOS.some((scenario) => scenario.command === command));
    expect(missing, 'add these commands to SCENARIOS in test/robustness/secrets.test.ts').toEqual([]);
  });

  it.concurrent.each(MODES)('in the output and files of every command: $name', async (mode) => {
    const dir = projects[mode.name]!;
    const chosen = mode.scenarios ?? 'every';
    const scenarios = SCENARIOS.filter(
      (scenario) => registered.includes(scenario.command) && (chosen === 'all' || (scenario.everyMode && (chosen === 'every' || chosen.includes(scenario.command)))),
    );
    const results: { args: string[]; result: CliResult }[] = [];
    for (const scenario of scenarios) {
      const result = await runScenario(scenario, mode.apiUrl(), dir);
      results.push({ args: scenario.args, result });
      expectNoLeak(`stdout of \`postsync ${scenario.args.join(' ')}\` (${mode.name})`, result.stdout);
      expectNoLeak(`stderr of \`postsync ${scenario.args.join(' ')}\` (${mode.name})`, result.stderr);
    }
    expect(await expectNoLeakInFiles(dir)).toBeGreaterThan(0);
    const emulator = mode.emulator?.();
    if (emulator) expectNoLeak(`the request log of the emulator (${mode.name})`, JSON.stringify(await emulator.requestLog()));

    // The runs did what the mode says, so the search above covered the intended paths.
    const outcome = (...args: string[]) => results.find((run) => run.args.join(' ') === args.join(' '))?.result;
    const apply = outcome('apply', '--yes')!;
    if (mode.name === 'everything works') {
      expect(apply.code, apply.stderr).toBe(0);
      expect(outcome('apply', '--yes', 'plan.json')!.code, 'the saved plan is stale after the apply').toBe(3);
      expect(await readFile(join(dir, 'plan.json'), 'utf8')).toContain('"formatVersion"');
      expectNoLeak('.postsync/state.json', await readFile(join(dir, '.postsync/state.json')));
      const watch = outcome('watch');
      if (watch) expect(watch.stdout, watch.stderr).toContain('Stopped watching.');
    } else if (mode.name !== 'chaos 503/500/reset with POSTSYNC_DEBUG=1') {
      expect(apply.code, apply.stdout + apply.stderr).toBe(1);
    }
    if (mode.name === 'chaos 503/500/reset with POSTSYNC_DEBUG=1') {
      const stderr = results.map((run) => run.result.stderr).join('\n');
      expect(stderr).toContain('Authorization: Bearer ***');
      expect(stderr).toMatch(/retrying /);
    }
    checked.push({ mode: mode.name, runs: results.length });
  }, 240_000);

  it('in a project that uses the embedded local API (no URL): its journal and output', async () => {
    const dir = await demoProject({ 'launch.md': post({ body: 'Local.' }) });
    for (const args of [['plan'], ['apply', '--yes']]) {
      // The embedded API uses its own demo key; a real project's key in the environment is never sent there.
      const result = await runCli(args, { cwd: dir, env: { POSTSYNC_API_KEY: CANARY, POSTSYNC_DEBUG: '1' } });
      expect(result.code, result.stderr).toBe(0);
      expectNoLeak(`stdout of local \`postsync ${args.join(' ')}\``, result.stdout);
      expectNoLeak(`stderr of local \`postsync ${args.join(' ')}\``, result.stderr);
    }
    await expectNoLeakInFiles(dir);
  }, 60_000);
});

describe('the API key never appears in the client\'s errors, events, or the config', () => {
  it('errors and events of every failing call, inspected in depth', async () => {
    const failing: [string, TestEmulator | null][] = [
      ['paused', emulators.paused!],
      ['unknown', emulators.unknown!],
      ['read-only', emulators.readOnly!],
      ['chaos', emulators.chaos!],
      ['unreachable', null],
    ];
    let errors = 0;
    for (const [name, emulator] of failing) {
      const events: ClientEvent[] = [];
      const client = new ApiClient({ baseUrl: emulator?.baseUrl ?? REFUSED_API_URL, apiKey: CANARY, debug: true, maxAttempts: 2, onEvent: (event) => events.push(event) });
      const calls: (() => Promise<unknown>)[] = [
        () => client.session(),
        () => client.accounts(),
        () => client.capabilities(DEMO_ACCOUNTS.photo),
        () => client.listPostsPage({ limit: 5 }),
        () => client.getPost('00000000-0000-4000-8000-000000000000'),
        () => client.createPost({ content: 'x', targets: [{ socialAccountId: DEMO_ACCOUNTS.photo }], mediaIds: [] }, { idempotencyKey: 'secrets-test' }),
        () => client.updatePost('00000000-0000-4000-8000-000000000000', { content: 'x' }),
        () => client.deletePost('00000000-0000-4000-8000-000000000000'),
        () => client.createUpload({ kind: 'image', contentType: 'image/png', sizeBytes: 10, fileName: 'x.png' }),
        () => client.completeMedia('00000000-0000-4000-8000-000000000000'),
      ];
      for (const call of calls) {
        const error = await call().then(() => undefined, (caught: unknown) => caught);
        if (error === undefined) continue;
        errors++;
        const where = `the error of a call (${name}): ${String(error)}`;
        expectNoLeak(where, inspect(error, { showHidden: true, depth: null, getters: true }));
        expectNoLeak(where, JSON.stringify(error));
        expectNoLeak(where, String((error as Error).stack));
        expectNoLeak(where, inspect((error as Error).cause, { showHidden: true, depth: null }));
      }
      await client.close();
      expectNoLeak(`the client events (${name})`, JSON.stringify(events));
      expectNoLeak(`the client itself (${name})`, inspect(client, { showHidden: true, depth: 6 }));
      expect(events.some((event) => event.type === 'debug')).toBe(true);
    }
    expect(errors).toBeGreaterThanOrEqual(30);
  });

  it('the loaded config: inspect and JSON never show the key, though it is readable where requests are made', async () => {
    const dir = await demoProject({});
    const config = await loadConfig({ cwd: dir, env: { POSTSYNC_API_KEY: CANARY }, flags: { apiUrl: 'http://127.0.0.1:9/public/v1' } });
    expect(config.api.key).toBe(CANARY);
    expectNoLeak('inspect(config)', inspect(config, { depth: null }));
    expectNoLeak('JSON of the config', JSON.stringify(config));
    expectNoLeak('a spread of config.api', JSON.stringify({ ...config.api }));
  });
});

describe('postsync serve', () => {
  it('its output, its request log and its --data files never hold a key it was given', async () => {
    const work = await testdir({ 'fixture.json': JSON.stringify(fixture({ canary: 'full' })) });
    const dataDir = join(work, 'data');
    const serve = startCli(['serve', '--port', '0', '--fixture', join(work, 'fixture.json'), '--data', dataDir], { cwd: work, env: { POSTSYNC_DEBUG: '1' } });
    try {
      const baseUrl = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('serve printed no URL')), 20_000);
        serve.child.stdout!.on('data', (chunk: Buffer) => {
          const match = /listening on (\S+)/.exec(chunk.toString());
          if (match) {
            clearTimeout(timer);
            resolve(match[1]!);
          }
        });
      });
      const dir = await demoProject({ 'launch.md': post({ body: 'Served.' }) });
      const env = { POSTSYNC_API_KEY: CANARY, POSTSYNC_DEBUG: '1' };
      const apply = await runCli(['--api-url', baseUrl, 'apply', '--yes'], { cwd: dir, env });
      expect(apply.code, apply.stderr).toBe(0);
      const unknown = await runCli(['--api-url', baseUrl, 'plan'], { cwd: dir, env: { ...env, POSTSYNC_API_KEY: `${CANARY}-revoked` } });
      expect(unknown.code).toBe(1);
      for (const run of [apply, unknown]) {
        expectNoLeak('a CLI run against serve', run.stdout + run.stderr);
      }
      const log = await (await fetch(`${new URL(baseUrl).origin}/_emulator/requests`)).text();
      expect(log).toContain('/public/v1/posts');
      expectNoLeak('the request log of serve', log);
      await expectNoLeakInFiles(dir);
    } finally {
      serve.child.kill('SIGTERM');
    }
    const finished = await serve.done;
    expectNoLeak('the stdout of serve', finished.stdout);
    expectNoLeak('the stderr of serve', finished.stderr);
    expect(await expectNoLeakInFiles(dataDir)).toBeGreaterThan(0);
  }, 60_000);
});

describe('the leak search itself', () => {
  it('finds the key in each form it looks for', () => {
    const samples = [
      CANARY,
      `Authorization: Bearer ${CANARY}`,
      encodeURIComponent(CANARY),
      Buffer.from(`Bearer ${CANARY}`).toString('base64'),
      Buffer.from(`x${CANARY}`).toString('base64url'),
      inspect(Buffer.from(CANARY)),
      Buffer.from(CANARY).toString('hex'),
      CANARY.toLowerCase(),
    ];
    for (const sample of samples) expect(leaks(sample), sample).not.toEqual([]);
    expect(leaks(`Bearer ***, ${CLI}, 'sk-live-'`)).toEqual([]);
  });
});
