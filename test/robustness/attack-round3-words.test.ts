import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, DEMO_API_KEY } from '../../src/emulator/index.js';
import { runCli } from '../helpers/cli.js';
import { HostileApi } from '../helpers/hostile-api.js';
import { testdir } from '../helpers/testdir.js';
import { CRASH, hostileWorld, type Json } from './attack-round3-world.js';

/**
 * Attack round 3, the words and names a terminal, the runner or a file system would obey: remote
 * times, file names, state keys, import ids, the key and another host, Retry-After, the iCalendar
 * feed, analytics. attack-round3-shapes.test.ts has the rest of the round.
 */

const world = hostileWorld();
describe('attack: remote times that are no time', () => {
  const TIMES = ['tomorrow', '2027-13-45T99:00:00Z', '', '+275760-09-13T00:00:01Z', 'soon\r\n::error::forged\u001b[2J\u202e'];
  it.each(TIMES)('a scheduledAt of %j: every command ends cleanly, the calendar and its feed included', async (time) => {
    const dir = await world.appliedProject();
    world.rewritePost = (post) => (post.scheduledAt = time);
    for (const command of [['plan'], ['status'], ['calendar', '--out', 'page', '--ics', 'page/feed.ics'], ['apply', '--yes'], ['import', '--dry-run']]) {
      const result = await runCli(command, { cwd: dir, env: { ...world.env(), GITHUB_ACTIONS: 'true' } });
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
    await world.emulator.reset();
    world.rewritePost = undefined;
    world.rewriteData = undefined;
    world.rewriteText = undefined;
    const evilName = 'posts/a\n::error::forged \u001b]0;owned\u0007\u202eevil.md';
    const dir = await testdir({
      'postsync.yaml': `timezone: UTC\naccounts:\n  photo: ${DEMO_ACCOUNTS.photo}\n`,
      'media/cover.png': await png(),
      [evilName]: '---\nscheduledAt: 2027-03-01 09:00\ntargets: [photo]\nmedia: [media/cover.png]\n---\nHello\n',
      'posts/bad.md': '---\nscheduledAt: "2027-03-01 09:00\\n::error::forged\\u001b[31m"\ntargets: ["photo\\n::warning::forged\\u001b]8;;https://evil.example\\u0007"]\nmedia: ["media/x\\n::notice::forged\\u202e.png"]\n"\\n::error::forged\\u001b": 1\n---\nHi\n',
    });
    const summary = join(dir, 'summary.md');
    await writeFile(summary, '');
    const actions = { ...world.env(), GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary, GITHUB_WORKSPACE: dir };
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
    const dir = await world.appliedProject();
    const statePath = join(dir, '.postsync/state.json');
    const state = JSON.parse(await readFile(statePath, 'utf8'));
    const target = Object.values(state.targets as Record<string, { posts: Record<string, unknown> }>)[0]!;
    const evilKey = 'hello\r\u001b[2Kinnocent-post\u009b2K\u202e';
    target.posts = { [evilKey]: target.posts.hello };
    await writeFile(statePath, JSON.stringify(state, null, 2));
    world.rewritePost = (post) => (post.content = 'Hello\u001b]52;c;ZXZpbA==\u0007 \u202eredro\u0085\u200b');
    for (const command of [['state', 'confirm', '--all', '--yes'], ['plan', '--json'], ['status', '--json']]) {
      const result = await runCli(command, { cwd: dir, env: world.env() });
      const output = `${result.stdout}${result.stderr}`;
      expect(output, command.join(' ')).not.toMatch(CRASH);
      expect(output, command.join(' ')).not.toMatch(/[\u001b\u0007\r\u009b\u202e\u0085\u200b]/);
    }
  }, 120_000);
});

describe('attack: the API key and another host', () => {
  it('a redirect of any API call to another host is not followed: that host never receives the key', async () => {
    const dir = await world.appliedProject();
    const elsewhere = await HostileApi.start(world.emulator.baseUrl);
    const redirecting = await HostileApi.start(world.emulator.baseUrl, {
      misbehave: (_req, res, url) => {
        res.writeHead(307, { location: `${elsewhere.origin}${url.pathname}${url.search}` }).end();
        return true;
      },
    });
    try {
      for (const command of [['whoami'], ['plan'], ['apply', '--yes'], ['import', '--dry-run']]) {
        const result = await runCli(command, { cwd: dir, env: { ...world.env(), POSTSYNC_API_URL: redirecting.baseUrl } });
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
    const dir = await world.freshProject();
    await rm(join(dir, 'posts'), { recursive: true });
    const created = await world.emulator.api('POST', '/posts', { body: { content: 'Imported text', targets: [{ socialAccountId: DEMO_ACCOUNTS.photo }], mediaIds: [] } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    world.rewritePost = (post) => (post.id = id);
    const before = await listFiles(dir);
    const result = await runCli(['import'], { cwd: dir, env: world.env() });
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
    const dir = await world.appliedProject();
    await writeFile(join(dir, 'posts/second.md'), '---\ntargets: [photo]\nmedia: [media/cover.png]\n---\nSecond\n');
    const setup = await runCli(['apply', '--yes'], { cwd: dir, env: world.env() });
    expect(setup.code, setup.stderr).toBe(0);
    await writeFile(join(dir, 'posts/second.md'), '---\ntargets: [photo]\nmedia: [media/cover.png]\n---\nSecond, edited\n');
    await writeFile(join(dir, 'posts/hello.md'), '---\nscheduledAt: 2027-03-01 09:00\ntargets: [photo]\nmedia: [media/cover.png]\n---\nHello, edited\n');
    let throttled = false;
    world.misbehave = (req, res, url) => {
      if (req.method !== 'PATCH' || !url.pathname.includes('/posts/') || throttled) return false;
      throttled = true;
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': seconds }).end(JSON.stringify({ error: { code: 'rate_limited', message: 'slow down' } }));
      return true;
    };
    const result = await runCli(['apply', '--yes'], { cwd: dir, env: world.env() });
    const output = `${result.stdout}${result.stderr}`;
    expect(output).not.toMatch(CRASH);
    expect(result.code, output).toBe(1);
    expect(output).toMatch(/rate limited/);
    expect(output).toMatch(/\d failed/);
  }, 150_000);
});

describe('attack: a post text that would add events or fields to the iCalendar feed', () => {
  it('line breaks, ; and , in a post text and a file name stay inside their one field of their one event', async () => {
    await world.emulator.reset();
    const forged = 'Hi\r\nEND:VEVENT\r\nBEGIN:VEVENT\r\nSUMMARY:forged;x=1,2\nDTSTART:20000101T000000Z\rATTACH:https://evil.example';
    const dir = await testdir({
      'postsync.yaml': `timezone: UTC\naccounts:\n  photo: ${DEMO_ACCOUNTS.photo}\n`,
      'media/cover.png': await readFile(new URL('../../examples/media/cover.png', import.meta.url)),
      'posts/a\r\nX-FORGED:1.md': `---\nscheduledAt: 2027-03-01 09:00\ntargets: [photo]\nmedia: [media/cover.png]\n---\n${forged}\n`,
    });
    const result = await runCli(['calendar', '--out', 'page', '--ics', 'page/feed.ics'], { cwd: dir, env: world.env() });
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
      const result = await runCli(['validate'], { cwd: dir, env: { ...world.env(), ...extra } });
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
      const result = await runCli(['plan'], { cwd: dir, env: { ...world.env(), ...extra } });
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
    const dir = await world.appliedProject();
    await world.emulator.setClock(new Date('2027-03-02T00:00:00Z'));
    const published = await runCli(['analytics', '--json'], { cwd: dir, env: world.env() });
    expect(published.code, published.stderr).toBe(0);
    world.rewriteData = (data, path) => path === '/analytics/posts' && Array.isArray(data.items) && data.items.length > 0 && rewrite(data.items);
    for (const command of [['analytics'], ['analytics', '--json']]) {
      const result = await runCli(command, { cwd: dir, env: world.env() });
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
      const result = await runCli(command, { cwd: dir, env: { ...world.env(), ...extra } });
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
    const dir = await world.appliedProject();
    world.rewritePost = (post) => {
      post.status = evil('scheduled');
      for (const target of post.targets) Object.assign(target, { error: evil('error'), waitReason: evil('wait'), nextAttemptAt: evil('soon'), publishedAt: evil('then'), handle: evil('@h'), platform: evil('photoC'), status: evil('failed'), externalPostId: evil('x') });
    };
    await expectEscapedEverywhere(dir, [['status'], ['status', '--problems'], ['status', '--json'], ['plan'], ['apply', '--yes'], ['import', '--dry-run']]);
  }, 120_000);
});

describe('attack: the remote\'s words about the key and the accounts', () => {
  it('permissions, an expiry, handles, statuses, rule notes, reasons and option names with controls are printed as escapes by every command', async () => {
    const dir = await world.appliedProject();
    world.rewriteData = (data, path) => {
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
