import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, DEMO_API_KEY } from '../../src/emulator/index.js';
import { runCli } from '../helpers/cli.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { HostileApi, type Misbehaviour } from '../helpers/hostile-api.js';
import { testdir } from '../helpers/testdir.js';

/**
 * Attack round 3: a hostile remote service, pull-request author and web page against the whole
 * product, for attacks the other robustness files do not try.
 */

type Json = Record<string, any>;

let emulator: TestEmulator;
let hostile: HostileApi;
/** What the hostile API does to every post it answers with (a listing's items, or one post); none: answers as the emulator. */
/** What the hostile API does to a post it answers with (a listing's items, or one post); none: answers as the emulator. */
let rewritePost: ((post: Json) => void) | undefined;
/** What the hostile API does to any other JSON answer's `data`, given the path asked for. */
let rewriteData: ((data: Json, path: string) => void) | undefined;
/** What the hostile API does to the text of a JSON answer, last. */
let rewriteText: ((text: string, url: URL) => string) | undefined;
/** A request the hostile API answers itself (returns true) instead of forwarding it. */
let misbehave: Misbehaviour | undefined;

beforeAll(async () => {
  emulator = await startTestEmulator();
  hostile = await HostileApi.start(emulator.baseUrl, {
    misbehave: (req, res, url) => misbehave?.(req, res, url) ?? false,
    rewriteJson: (answer, url) => {
      const data = (answer as { data?: Json }).data;
      if (data === undefined || data === null) return answer;
      rewriteData?.(data, url.pathname.replace(/^\/public\/v1/, ''));
      if (rewritePost === undefined) return answer;
      if (Array.isArray(data.items)) data.items.forEach((item: Json) => rewritePost!(item));
      else if (typeof data.id === 'string' && 'targets' in data) rewritePost(data);
      return answer;
    },
    rewriteText: (text, url) => rewriteText?.(text, url) ?? text,
  });
});
afterAll(async () => {
  await hostile.close();
  await emulator.close();
});

/** What a crash looks like on stderr: a JavaScript error's own words, or a stack line. */
const CRASH = /TypeError|RangeError|Cannot read propert|is not a function|is not iterable|^\s+at /m;

const env = () => ({ POSTSYNC_API_KEY: DEMO_API_KEY, POSTSYNC_API_URL: hostile.baseUrl });

/** A project of one post with one image, nothing applied yet. */
async function freshProject(): Promise<string> {
  await emulator.reset();
  rewritePost = undefined;
  rewriteData = undefined;
  rewriteText = undefined;
  misbehave = undefined;
  return testdir({
    'postsync.yaml': `timezone: UTC\naccounts:\n  photo: ${DEMO_ACCOUNTS.photo}\n`,
    'media/cover.png': await readFile(new URL('../../examples/media/cover.png', import.meta.url)),
    'posts/hello.md': '---\nscheduledAt: 2027-03-01 09:00\ntargets: [photo]\nmedia: [media/cover.png]\n---\nHello\n',
  });
}

/** `freshProject` applied through the honest API, then edited (so the next apply patches it). */
async function appliedProject(): Promise<string> {
  const dir = await freshProject();
  const applied = await runCli(['apply', '--yes'], { cwd: dir, env: env() });
  expect(applied.code, applied.stderr).toBe(0);
  await writeFile(join(dir, 'posts/hello.md'), '---\nscheduledAt: 2027-03-01 09:00\ntargets: [photo]\nmedia: [media/cover.png]\n---\nHello again\n');
  return dir;
}

const WRONG_TYPES: { name: string; field: RegExp; rewrite: (post: Json) => void }[] = [
  { name: 'a target that is null', field: /targets\[0\]`/, rewrite: (post) => (post.targets = [null]) },
  { name: 'a target that is a text', field: /targets\[0\]`/, rewrite: (post) => (post.targets = ['photo']) },
  { name: 'a target account id that is a number', field: /targets\[0\]\.socialAccountId`/, rewrite: (post) => (post.targets[0].socialAccountId = 5) },
  { name: 'a target status that is a number', field: /targets\[0\]\.status`/, rewrite: (post) => (post.targets[0].status = 3) },
  { name: 'a target contentOverride that is a number', field: /targets\[0\]\.contentOverride`/, rewrite: (post) => (post.targets[0].contentOverride = 9) },
  { name: 'a media that is null', field: /media\[0\]`/, rewrite: (post) => (post.media = [null]) },
  { name: 'a media id that is a number', field: /media\[0\]\.id`/, rewrite: (post) => (post.media[0].id = 1) },
  { name: 'an updatedAt that is an object', field: /updatedAt`/, rewrite: (post) => (post.updatedAt = {}) },
  { name: 'a content that is a number', field: /content`/, rewrite: (post) => (post.content = 42) },
  { name: 'a scheduledAt that is a number', field: /scheduledAt`/, rewrite: (post) => (post.scheduledAt = 1_800_000_000) },
];

describe('attack: a remote post whose fields have the wrong type', () => {
  it.each(WRONG_TYPES)('$name: every command stops with an error naming the endpoint and the field, and the state stays readable', async ({ field, rewrite }) => {
    const dir = await appliedProject();
    rewritePost = rewrite;
    for (const command of [['plan'], ['status'], ['calendar', '--out', 'page'], ['apply', '--yes']]) {
      const result = await runCli(command, { cwd: dir, env: env() });
      expect(result.stderr, command.join(' ')).not.toMatch(CRASH);
      expect(result.code, `${command.join(' ')}\n${result.stderr}`).toBe(1);
      expect(result.stderr, command.join(' ')).toMatch(/GET \/posts(\/\{id\})?: field `/);
      expect(result.stderr, command.join(' ')).toMatch(field);
    }
    rewritePost = undefined;
    const honest = await runCli(['apply', '--yes'], { cwd: dir, env: env() });
    expect(honest.stderr).not.toMatch(CRASH);
    expect(honest.code, honest.stderr).toBe(0);
  }, 120_000);
});

const WRONG_ACCOUNT_TYPES: { name: string; field: RegExp; rewrite: (data: Json, path: string) => void }[] = [
  { name: 'an account that is null', field: /GET \/accounts: field `items\[0\]`/, rewrite: (data, path) => path === '/accounts' && (data.items = [null]) },
  { name: 'an account id that is a number', field: /GET \/accounts: field `items\[0\]\.id`/, rewrite: (data, path) => path === '/accounts' && (data.items[0].id = 5) },
  { name: 'an account handle that is a number', field: /GET \/accounts: field `items\[0\]\.handle`/, rewrite: (data, path) => path === '/accounts' && (data.items[0].handle = 5) },
  {
    name: 'a content type of the rules that is a number',
    field: /capabilities: field `rules\.media\.images\.contentTypes\[0\]`/,
    rewrite: (data, path) => path.endsWith('/capabilities') && (data.rules.media.images.contentTypes = [5]),
  },
  {
    name: 'a caption length limit that is a text',
    field: /capabilities: field `rules\.caption\.maxLength`/,
    rewrite: (data, path) => path.endsWith('/capabilities') && (data.rules.caption.maxLength = 'none'),
  },
];

describe('attack: accounts and their rules whose fields have the wrong type', () => {
  it.each(WRONG_ACCOUNT_TYPES)('$name: accounts and plan stop with an error naming the endpoint and the field', async ({ field, rewrite }) => {
    const dir = await appliedProject();
    rewriteData = rewrite;
    for (const command of [['accounts'], ['plan']]) {
      const result = await runCli(command, { cwd: dir, env: env() });
      expect(result.stderr, command.join(' ')).not.toMatch(CRASH);
      if (command[0] === 'plan' && result.code === 0) continue; // a plan that needs no such field
      expect(result.code, `${command.join(' ')}\n${result.stderr}`).toBe(1);
      expect(result.stderr, command.join(' ')).toMatch(field);
    }
  }, 120_000);
});

/** JSON nested `depth` arrays deep, as text (JSON.stringify could not write it). */
const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

describe('attack: an answer nested 100,000 deep', () => {
  const DEEP = nested(100_000);
  const cases: { name: string; rewrite: (text: string, url: URL) => string; endpoint: RegExp }[] = [
    { name: 'in the options of a listed post', rewrite: (text, url) => (url.pathname.endsWith('/posts') ? text.replace(/"options":\{(\}?)/, (_match, empty: string) => `"options":{"deep":${DEEP}${empty === '' ? ',' : '}'}`) : text), endpoint: /GET (\/public\/v1)?\/posts/ },
    { name: 'in a field of the session nobody reads', rewrite: (text, url) => (url.pathname.endsWith('/auth/session') ? text.replace('{"data":{', `{"data":{"deep":${DEEP},`) : text), endpoint: /GET (\/public\/v1)?\/auth\/session/ },
  ];
  it.each(cases)('$name: every command ends with a clear error naming the endpoint, never a stack overflow', async ({ rewrite, endpoint }) => {
    const dir = await appliedProject();
    rewriteText = rewrite;
    for (const command of [['plan', '--json'], ['status'], ['calendar', '--out', 'page'], ['apply', '--yes']]) {
      const result = await runCli(command, { cwd: dir, env: env() });
      expect(result.stderr, command.join(' ')).not.toMatch(CRASH);
      expect(result.stderr, command.join(' ')).not.toMatch(/call stack/i);
      expect(result.code, `${command.join(' ')}\n${result.stderr}`).toBe(1);
      expect(result.stderr, command.join(' ')).toMatch(endpoint);
      expect(result.stderr, command.join(' ')).toMatch(/nest/);
    }
  }, 120_000);

  it('in the message of an error answer: the error is shown without it, never a stack overflow', async () => {
    const dir = await appliedProject();
    misbehave = (_req, res, url) => {
      if (!url.pathname.endsWith('/posts')) return false;
      res.writeHead(403, { 'content-type': 'application/json' }).end(`{"error":{"code":"forbidden","message":["denied",${DEEP_MESSAGE}]}}`);
      return true;
    };
    const result = await runCli(['plan'], { cwd: dir, env: env() });
    expect(result.stderr).not.toMatch(CRASH);
    expect(result.stderr).not.toMatch(/call stack/i);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toContain('denied');
  }, 120_000);
});
const DEEP_MESSAGE = nested(100_000);

describe('attack: the remote\'s words in the job summary', () => {
  it('a link or an image in the remote\'s error message is shown as text, never rendered as a link or loaded', async () => {
    const dir = await appliedProject();
    const phishing = 'Account locked: [verify it here](https://evil.example/login) ![](https://evil.example/pixel.png) [ref]: https://evil.example';
    misbehave = (req, res, url) => {
      if (req.method !== 'PATCH' || !url.pathname.includes('/posts/')) return false;
      res.writeHead(422, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 'validation_failed', message: phishing } }));
      return true;
    };
    const summary = join(dir, 'summary.md');
    await writeFile(summary, '');
    const result = await runCli(['apply', '--yes'], { cwd: dir, env: { ...env(), GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary } });
    expect(result.code, result.stderr).toBe(1);
    const markdown = await readFile(summary, 'utf8');
    expect(markdown).toContain('verify it here');
    // A link or image opens with an unescaped `[` (or `![`) closed by `](`.
    expect(markdown).not.toMatch(/(?<!\\)\[[^\]]*(?<!\\)\]\(/);
    expect(markdown).not.toMatch(/^\s*(?<!\\)\[ref(?<!\\)\]:/m);
  }, 120_000);
});

describe('attack: upload answers of the wrong shape', () => {
  const cases: { name: string; rewrite: (data: Json, path: string) => void; misbehave?: Misbehaviour; field: RegExp }[] = [
    { name: 'a ticket whose media is null', rewrite: (data, path) => path === '/media/uploads' && (data.media = null), field: /POST \/media\/uploads: field `media`/ },
    { name: 'a ticket whose upload is a text', rewrite: (data, path) => path === '/media/uploads' && (data.upload = 'PUT'), field: /POST \/media\/uploads: field `upload`/ },
    { name: 'a ticket whose upload url is a number', rewrite: (data, path) => path === '/media/uploads' && (data.upload.url = 5), field: /POST \/media\/uploads: field `upload\.url`/ },
    { name: 'a completed media without an id', rewrite: (data, path) => path.endsWith('/complete') && delete data.id, field: /POST \/media\/\{id\}\/complete: field `id`/ },
    {
      name: 'a multipart upload of one-byte parts (a part per byte, past the 128 parts of the spec)',
      rewrite: (data, path) => path === '/media/uploads' && Object.assign(data.upload, { url: undefined, multipart: { partSizeBytes: 1, partCount: data.media.sizeBytes ?? 5000 } }),
      field: /POST \/media\/uploads: field `upload\.multipart\.partCount`/,
    },
    ...[{ parts: [null] }, { parts: [{ partNumber: '1', etag: 5, size: 'all' }] }, null].map((listed) => ({
      name: `a multipart part list of ${JSON.stringify(listed)}`,
      rewrite: (data: Json, path: string) => path === '/media/uploads' && Object.assign(data.upload, { url: undefined, multipart: { partSizeBytes: 1_000_000, partCount: 1 } }),
      misbehave: ((_req, res, url) => {
        if (!url.pathname.endsWith('/multipart')) return false;
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: listed }));
        return true;
      }) satisfies Misbehaviour,
      field: /POST \/media\/\{id\}\/multipart: field `(parts|data)/,
    })),
  ];
  it.each(cases)('$name: the upload fails naming the endpoint and the field, and its post is not created', async ({ rewrite, field, misbehave: misbehaving }) => {
    const dir = await freshProject();
    rewriteData = rewrite;
    misbehave = misbehaving;
    const result = await runCli(['apply', '--yes'], { cwd: dir, env: env() });
    const output = `${result.stdout}${result.stderr}`;
    expect(output).not.toMatch(CRASH);
    expect(result.code, output).toBe(1);
    expect(output).toMatch(field);
    expect((await emulator.api('GET', '/posts')).body.data.items).toEqual([]);
  }, 120_000);
});

describe('attack: remote times that are no time', () => {
  const TIMES = ['tomorrow', '2027-13-45T99:00:00Z', '', '+275760-09-13T00:00:01Z', 'soon\r\n::error::forged\u001b[2J\u202e'];
  it.each(TIMES)('a scheduledAt of %j: every command ends cleanly, the calendar and its feed included', async (time) => {
    const dir = await appliedProject();
    rewritePost = (post) => (post.scheduledAt = time);
    for (const command of [['plan'], ['status'], ['calendar', '--out', 'page', '--ics', 'page/feed.ics'], ['apply', '--yes'], ['import', '--dry-run']]) {
      const result = await runCli(command, { cwd: dir, env: { ...env(), GITHUB_ACTIONS: 'true' } });
      expect(result.stderr, command.join(' ')).not.toMatch(CRASH);
      expect(result.stderr, command.join(' ')).not.toMatch(/Invalid time value|Invalid Date|NaN/);
      expect(result.stdout, command.join(' ')).not.toMatch(/Invalid Date|NaN/);
      expect(`${result.stdout}${result.stderr}`, command.join(' ')).not.toMatch(/[\u001b\r\u202e]|^::error::forged/m);
      expect([0, 1], `${command.join(' ')}\n${result.stderr}`).toContain(result.code);
    }
  }, 120_000);
});

describe('attack: file names and file text that a terminal or the Actions runner would obey', () => {
  /** What must never reach a log raw: escape, BEL, CR, a C1 CSI, a bidi override. */
  const CONTROLS = /[\u001b\u0007\r\u009b\u202e]/;
  /** A workflow command of the attacker's: a line that starts with one whose message is theirs. */
  const FORGED = /^::[\w-]+( [^:\n]*)?::forged/m;
  const png = () => readFile(new URL('../../examples/media/cover.png', import.meta.url));

  it('a post file name with a line break, ESC and bidi marks, and front-matter values with them, are printed as escapes by every command', async () => {
    await emulator.reset();
    rewritePost = undefined;
    rewriteData = undefined;
    rewriteText = undefined;
    const evilName = 'posts/a\n::error::forged \u001b]0;owned\u0007\u202eevil.md';
    const dir = await testdir({
      'postsync.yaml': `timezone: UTC\naccounts:\n  photo: ${DEMO_ACCOUNTS.photo}\n`,
      'media/cover.png': await png(),
      [evilName]: '---\nscheduledAt: 2027-03-01 09:00\ntargets: [photo]\nmedia: [media/cover.png]\n---\nHello\n',
      'posts/bad.md': '---\nscheduledAt: "2027-03-01 09:00\\n::error::forged\\u001b[31m"\ntargets: ["photo\\n::warning::forged\\u001b]8;;https://evil.example\\u0007"]\nmedia: ["media/x\\n::notice::forged\\u202e.png"]\n"\\n::error::forged\\u001b": 1\n---\nHi\n',
    });
    const summary = join(dir, 'summary.md');
    await writeFile(summary, '');
    const actions = { ...env(), GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary, GITHUB_WORKSPACE: dir };
    for (const command of [['validate'], ['plan'], ['plan', '--json'], ['status'], ['calendar', '--out', 'page'], ['apply', '--yes'], ['state', 'show']]) {
      const result = await runCli(command, { cwd: dir, env: actions });
      const output = `${result.stdout}${result.stderr}`;
      expect(output, command.join(' ')).not.toMatch(CRASH);
      expect(output, command.join(' ')).not.toMatch(CONTROLS);
      expect(output, command.join(' ')).not.toMatch(FORGED);
    }
    const markdown = await readFile(summary, 'utf8');
    expect(markdown).not.toMatch(CONTROLS);
    expect(markdown).not.toMatch(/^::/m);
  }, 120_000);
});

describe('attack: what `state confirm` shows the person deciding what to seal', () => {
  it('a record key from a pull request and a remote text with terminal controls are shown as escapes, in the list and in --json of the other commands', async () => {
    const dir = await appliedProject();
    const statePath = join(dir, '.postsync/state.json');
    const state = JSON.parse(await readFile(statePath, 'utf8'));
    const target = Object.values(state.targets as Record<string, { posts: Record<string, unknown> }>)[0]!;
    const evilKey = 'hello\r\u001b[2Kinnocent-post\u009b2K\u202e';
    target.posts = { [evilKey]: target.posts.hello };
    await writeFile(statePath, JSON.stringify(state, null, 2));
    rewritePost = (post) => (post.content = 'Hello\u001b]52;c;ZXZpbA==\u0007 \u202eredro\u0085\u200b');
    for (const command of [['state', 'confirm', '--all', '--yes'], ['plan', '--json'], ['status', '--json']]) {
      const result = await runCli(command, { cwd: dir, env: env() });
      const output = `${result.stdout}${result.stderr}`;
      expect(output, command.join(' ')).not.toMatch(CRASH);
      expect(output, command.join(' ')).not.toMatch(/[\u001b\u0007\r\u009b\u202e\u0085\u200b]/);
    }
  }, 120_000);
});

describe('attack: the API key and another host', () => {
  it('a redirect of any API call to another host is not followed: that host never receives the key', async () => {
    const dir = await appliedProject();
    const elsewhere = await HostileApi.start(emulator.baseUrl);
    const redirecting = await HostileApi.start(emulator.baseUrl, {
      misbehave: (_req, res, url) => {
        res.writeHead(307, { location: `${elsewhere.origin}${url.pathname}${url.search}` }).end();
        return true;
      },
    });
    try {
      for (const command of [['whoami'], ['plan'], ['apply', '--yes'], ['import', '--dry-run']]) {
        const result = await runCli(command, { cwd: dir, env: { ...env(), POSTSYNC_API_URL: redirecting.baseUrl } });
        expect(result.stderr, command.join(' ')).not.toMatch(CRASH);
        expect(result.code, command.join(' ')).toBe(1);
        expect(`${result.stdout}${result.stderr}`).not.toContain(DEMO_API_KEY);
      }
      expect(elsewhere.seen).toEqual([]);
    } finally {
      await redirecting.close();
      await elsewhere.close();
    }
  }, 120_000);
});

describe('attack: import writes what the remote names', () => {
  it.each(['../../../../outside', '/etc/passwd', 'a\n::error::forged\u001b', '.hidden/../x'])('a post id of %j: nothing is written outside the content folder, and every name printed is escaped', async (id) => {
    const dir = await freshProject();
    await rm(join(dir, 'posts'), { recursive: true });
    const created = await emulator.api('POST', '/posts', { body: { content: 'Imported text', targets: [{ socialAccountId: DEMO_ACCOUNTS.photo }], mediaIds: [] } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    rewritePost = (post) => (post.id = id);
    const before = await listFiles(dir);
    const result = await runCli(['import'], { cwd: dir, env: env() });
    const output = `${result.stdout}${result.stderr}`;
    expect(output).not.toMatch(CRASH);
    expect(output).not.toMatch(/[\u001b\r]/);
    expect(output).not.toMatch(/^::error::forged/m);
    const written = (await listFiles(dir)).filter((file) => !before.includes(file) && !file.startsWith('.postsync/'));
    for (const file of written) expect(file, `written: ${written.join(', ')}`).toMatch(/^posts\/imported\/[^/]+\/[^/]+\.md$/);
  }, 120_000);
});

async function listFiles(dir: string, under = ''): Promise<string[]> {
  const entries = await readdir(join(dir, under), { withFileTypes: true });
  const files = await Promise.all(entries.map((entry) => (entry.isDirectory() ? listFiles(dir, join(under, entry.name)) : [join(under, entry.name)])));
  return files.flat();
}

describe('attack: a Retry-After far in the future', () => {
  it.each(['3000', '99999999999'])('Retry-After: %s on an update: the run ends, saying the project is rate limited, rather than waiting for it', async (seconds) => {
    const dir = await appliedProject();
    await writeFile(join(dir, 'posts/second.md'), '---\ntargets: [photo]\nmedia: [media/cover.png]\n---\nSecond\n');
    const setup = await runCli(['apply', '--yes'], { cwd: dir, env: env() });
    expect(setup.code, setup.stderr).toBe(0);
    await writeFile(join(dir, 'posts/second.md'), '---\ntargets: [photo]\nmedia: [media/cover.png]\n---\nSecond, edited\n');
    await writeFile(join(dir, 'posts/hello.md'), '---\nscheduledAt: 2027-03-01 09:00\ntargets: [photo]\nmedia: [media/cover.png]\n---\nHello, edited\n');
    let throttled = false;
    misbehave = (req, res, url) => {
      if (req.method !== 'PATCH' || !url.pathname.includes('/posts/') || throttled) return false;
      throttled = true;
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': seconds }).end(JSON.stringify({ error: { code: 'rate_limited', message: 'slow down' } }));
      return true;
    };
    const result = await runCli(['apply', '--yes'], { cwd: dir, env: env() });
    const output = `${result.stdout}${result.stderr}`;
    expect(output).not.toMatch(CRASH);
    expect(result.code, output).toBe(1);
    expect(output).toMatch(/rate limited/);
    expect(output).toMatch(/\d failed/);
  }, 150_000);
});

describe('attack: a post text that would add events or fields to the iCalendar feed', () => {
  it('line breaks, ; and , in a post text and a file name stay inside their one field of their one event', async () => {
    await emulator.reset();
    const forged = 'Hi\r\nEND:VEVENT\r\nBEGIN:VEVENT\r\nSUMMARY:forged;x=1,2\nDTSTART:20000101T000000Z\rATTACH:https://evil.example';
    const dir = await testdir({
      'postsync.yaml': `timezone: UTC\naccounts:\n  photo: ${DEMO_ACCOUNTS.photo}\n`,
      'media/cover.png': await readFile(new URL('../../examples/media/cover.png', import.meta.url)),
      'posts/a\r\nX-FORGED:1.md': `---\nscheduledAt: 2027-03-01 09:00\ntargets: [photo]\nmedia: [media/cover.png]\n---\n${forged}\n`,
    });
    const result = await runCli(['calendar', '--out', 'page', '--ics', 'page/feed.ics'], { cwd: dir, env: env() });
    expect(result.stderr).not.toMatch(CRASH);
    expect(result.code, `${result.stdout}${result.stderr}`).toBe(0);
    const feed = await readFile(join(dir, 'page/feed.ics'), 'utf8');
    // Unfolded (RFC 5545 3.1), every line is one property; the forged ones never start a line.
    const lines = feed.replace(/\r\n[ \t]/g, '').split('\r\n');
    expect(lines.filter((line) => line === 'BEGIN:VEVENT')).toHaveLength(1);
    expect(lines.filter((line) => /^(SUMMARY:forged|DTSTART:2000|ATTACH|ATTENDEE|X-FORGED)/.test(line))).toEqual([]);
    expect(feed.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
  }, 120_000);
});

describe('attack: postsync.yaml names that a terminal would obey', () => {
  it('an alias with CR, ESC and a line that starts a workflow command is quoted as escapes in the configuration error', async () => {
    const dir = await testdir({
      'postsync.yaml': `timezone: UTC\naccounts:\n  "ph\\r\\u001b]0;owned\\u0007\\n::error::forged\\u202e": ${DEMO_ACCOUNTS.photo}\n`,
      'posts/a.md': '---\ntargets: [photo]\n---\nHi\n',
    });
    for (const extra of [{}, { GITHUB_ACTIONS: 'true' }]) {
      const result = await runCli(['validate'], { cwd: dir, env: { ...env(), ...extra } });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('is not a valid name in `accounts`');
      expect(result.stderr, JSON.stringify(extra)).not.toMatch(/[\u001b\u0007\r\u202e]/);
      expect(result.stderr, JSON.stringify(extra)).not.toMatch(/^::error::forged/m);
    }
  }, 120_000);
});

describe('attack: a state file whose keys a terminal would obey', () => {
  it('an invalid state with a line break and ESC in its target and post keys is refused with every problem on its own line, controls as escapes', async () => {
    const dir = await testdir({
      'postsync.yaml': `timezone: UTC\naccounts:\n  photo: ${DEMO_ACCOUNTS.photo}\n`,
      'posts/a.md': '---\ntargets: [photo]\n---\nHi\n',
      '.postsync/state.json': JSON.stringify({ version: 1, targets: { 'http://x\n::error::forged\u001b]0;t\u0007': { posts: { 'k\r\nPlan: 0 to create\u001b[2K': { postId: 5 } } } } }),
    });
    for (const extra of [{}, { GITHUB_ACTIONS: 'true' }]) {
      const result = await runCli(['plan'], { cwd: dir, env: { ...env(), ...extra } });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('is not a valid postsync state');
      expect(result.stderr, JSON.stringify(extra)).not.toMatch(/[\u001b\u0007\r]/);
      expect(result.stderr, JSON.stringify(extra)).not.toMatch(/^(::error::forged|Plan: 0 to create)/m);
    }
  }, 120_000);
});

describe('attack: analytics of the wrong type', () => {
  const cases: { name: string; rewrite: (items: Json[]) => void }[] = [
    { name: 'an item that is null', rewrite: (items) => (items[0] = null as unknown as Json) },
    { name: 'a post id that is a number', rewrite: (items) => (items[0]!.postId = 5) },
    { name: 'a metric that is a text', rewrite: (items) => (items[0]!.likes = 'many') },
    { name: 'a publishedAt that is a number', rewrite: (items) => (items[0]!.publishedAt = 5) },
    { name: 'an account id that is an object', rewrite: (items) => (items[0]!.socialAccountId = {}) },
  ];
  it.each(cases)('$name: analytics ends with an error naming the endpoint and the field, never a crash', async ({ rewrite }) => {
    const dir = await appliedProject();
    await emulator.setClock(new Date('2027-03-02T00:00:00Z'));
    const published = await runCli(['analytics', '--json'], { cwd: dir, env: env() });
    expect(published.code, published.stderr).toBe(0);
    rewriteData = (data, path) => path === '/analytics/posts' && Array.isArray(data.items) && data.items.length > 0 && rewrite(data.items);
    for (const command of [['analytics'], ['analytics', '--json']]) {
      const result = await runCli(command, { cwd: dir, env: env() });
      expect(result.stderr, command.join(' ')).not.toMatch(CRASH);
      expect(result.code, `${command.join(' ')}\n${result.stdout}${result.stderr}`).toBe(1);
      expect(result.stderr).toMatch(/GET \/analytics\/posts: field `items\[0\]/);
    }
  }, 120_000);
});

/** The words `evil` makes hostile: a line break, then a workflow command, ESC, a C1 CSI and a bidi override. */
const evil = (name: string) => `${name}\r\n::error::forged\u001b[2J\u009b31m\u202e`;

/** Runs each command outside and inside GitHub Actions: no crash, no raw control, no forged workflow command. */
async function expectEscapedEverywhere(dir: string, commands: string[][]): Promise<void> {
  for (const command of commands) {
    for (const extra of [{}, { GITHUB_ACTIONS: 'true' }]) {
      const result = await runCli(command, { cwd: dir, env: { ...env(), ...extra } });
      const output = `${result.stdout}${result.stderr}`;
      const label = `${command.join(' ')} ${JSON.stringify(extra)}`;
      expect(output, label).not.toMatch(CRASH);
      expect(output.split('\n').filter((line) => /[\u001b\r\u009b\u202e]/.test(line)), label).toEqual([]);
      expect(output, label).not.toMatch(/^::error::forged/m);
    }
  }
}

describe('attack: the remote\'s words about a post, on the terminal and in the runner\'s log', () => {
  it('a target error, wait reason, handle, platform, status and external id with line breaks and controls are printed as escapes by every command', async () => {
    const dir = await appliedProject();
    rewritePost = (post) => {
      post.status = evil('scheduled');
      for (const target of post.targets) Object.assign(target, { error: evil('error'), waitReason: evil('wait'), nextAttemptAt: evil('soon'), publishedAt: evil('then'), handle: evil('@h'), platform: evil('photoC'), status: evil('failed'), externalPostId: evil('x') });
    };
    await expectEscapedEverywhere(dir, [['status'], ['status', '--problems'], ['status', '--json'], ['plan'], ['apply', '--yes'], ['import', '--dry-run']]);
  }, 120_000);
});

describe('attack: the remote\'s words about the key and the accounts', () => {
  it('permissions, an expiry, handles, statuses, rule notes, reasons and option names with controls are printed as escapes by every command', async () => {
    const dir = await appliedProject();
    rewriteData = (data, path) => {
      if (path === '/auth/session') {
        data.permissions = [...(data.permissions as string[]), evil('perm')];
        if (data.key) data.key.expiresAt = evil('2030-01-01T00:00:00Z');
      }
      if (path === '/accounts') for (const account of data.items) Object.assign(account, { handle: evil('@h'), status: evil('active') });
      if (path.endsWith('/capabilities')) {
        data.reason = evil('reason');
        data.rules.notes = [evil('note')];
        data.rules.caption.lengthUnit = evil('characters');
        data.rules.options = { ...data.rules.options, [evil('option')]: { type: evil('string') } };
      }
    };
    await expectEscapedEverywhere(dir, [['whoami'], ['whoami', '--json'], ['accounts'], ['accounts', '--json'], ['plan'], ['validate'], ['calendar', '--out', 'page']]);
  }, 120_000);
});
