import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import type { Misbehaviour } from '../helpers/hostile-api.js';
import { CRASH, hostileWorld, type Json } from './attack-round3-world.js';

/**
 * Attack round 3, the remote's shapes: answers of the wrong type, nested too deep, upload answers
 * of the wrong shape, and the remote's words in the job summary. The other robustness files do
 * not try these; attack-round3-words.test.ts has the rest of the round.
 */

const world = hostileWorld();
/** The first case runs every command that lists posts; the others, sharing its reader, plan and apply. */
const WRONG_TYPES: { name: string; field: RegExp; rewrite: (post: Json) => void; everyCommand?: true }[] = [
  { name: 'a target that is null', field: /targets\[0\]`/, rewrite: (post) => (post.targets = [null]), everyCommand: true },
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
  it.each(WRONG_TYPES)('$name: each command stops with an error naming the endpoint and the field, and the state stays readable', async ({ field, rewrite, everyCommand }) => {
    const dir = await world.appliedProject();
    world.rewritePost = rewrite;
    const commands = everyCommand ? [['plan'], ['status'], ['calendar', '--out', 'page'], ['apply', '--yes']] : [['plan'], ['apply', '--yes']];
    for (const command of commands) {
      const result = await runCli(command, { cwd: dir, env: world.env() });
      expect(result.stderr, command.join(' ')).not.toMatch(CRASH);
      expect(result.code, `${command.join(' ')}\n${result.stderr}`).toBe(1);
      expect(result.stderr, command.join(' ')).toMatch(/GET \/posts(\/\{id\})?: field `/);
      expect(result.stderr, command.join(' ')).toMatch(field);
    }
    world.rewritePost = undefined;
    const honest = await runCli(['apply', '--yes'], { cwd: dir, env: world.env() });
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
  it.each(WRONG_ACCOUNT_TYPES)('$name: accounts and plan stop with an error naming the endpoint and the field (accounts: on the line of an account whose rules it cannot read)', async ({ field, rewrite }) => {
    const dir = await world.appliedProject();
    world.rewriteData = rewrite;
    for (const command of [['accounts'], ['plan']]) {
      const result = await runCli(command, { cwd: dir, env: world.env() });
      expect(result.stderr, command.join(' ')).not.toMatch(CRASH);
      if (command[0] === 'plan' && result.code === 0) continue; // a plan that needs no such field
      // One account's rules that cannot be read are that account's line; the others are listed.
      if (command[0] === 'accounts' && result.code === 0) {
        expect(result.stdout, command.join(' ')).toMatch(field);
        continue;
      }
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
    const dir = await world.appliedProject();
    world.rewriteText = rewrite;
    for (const command of [['plan', '--json'], ['status'], ['calendar', '--out', 'page'], ['apply', '--yes']]) {
      const result = await runCli(command, { cwd: dir, env: world.env() });
      expect(result.stderr, command.join(' ')).not.toMatch(CRASH);
      expect(result.stderr, command.join(' ')).not.toMatch(/call stack/i);
      expect(result.code, `${command.join(' ')}\n${result.stderr}`).toBe(1);
      expect(result.stderr, command.join(' ')).toMatch(endpoint);
      expect(result.stderr, command.join(' ')).toMatch(/nest/);
    }
  }, 120_000);

  it('in the message of an error answer: the error is shown without it, never a stack overflow', async () => {
    const dir = await world.appliedProject();
    world.misbehave = (_req, res, url) => {
      if (!url.pathname.endsWith('/posts')) return false;
      res.writeHead(403, { 'content-type': 'application/json' }).end(`{"error":{"code":"forbidden","message":["denied",${DEEP_MESSAGE}]}}`);
      return true;
    };
    const result = await runCli(['plan'], { cwd: dir, env: world.env() });
    expect(result.stderr).not.toMatch(CRASH);
    expect(result.stderr).not.toMatch(/call stack/i);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toContain('denied');
  }, 120_000);
});
const DEEP_MESSAGE = nested(100_000);

describe('attack: the remote\'s words in the job summary', () => {
  it('a link or an image in the remote\'s error message is shown as text, never rendered as a link or loaded', async () => {
    const dir = await world.appliedProject();
    const phishing = 'Account locked: [verify it here](https://evil.example/login) ![](https://evil.example/pixel.png) [ref]: https://evil.example';
    world.misbehave = (req, res, url) => {
      if (req.method !== 'PATCH' || !url.pathname.includes('/posts/')) return false;
      res.writeHead(422, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 'validation_failed', message: phishing } }));
      return true;
    };
    const summary = join(dir, 'summary.md');
    await writeFile(summary, '');
    const result = await runCli(['apply', '--yes'], { cwd: dir, env: { ...world.env(), GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary } });
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
    const dir = await world.freshProject();
    world.rewriteData = rewrite;
    world.misbehave = misbehaving;
    const result = await runCli(['apply', '--yes'], { cwd: dir, env: world.env() });
    const output = `${result.stdout}${result.stderr}`;
    expect(output).not.toMatch(CRASH);
    expect(result.code, output).toBe(1);
    expect(output).toMatch(field);
    expect((await world.emulator.api('GET', '/posts')).body.data.items).toEqual([]);
  }, 120_000);
});
