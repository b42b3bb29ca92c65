import { readFileSync } from 'node:fs';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_API_KEY } from '../../src/emulator/index.js';
import { runCli, type CliResult } from '../helpers/cli.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { testdir } from '../helpers/testdir.js';
import { loadBadCases, projectFiles, type BadCase, type Generated } from '../fixtures/bad/corpus.js';
import type { RequestLogEntry } from '../../src/emulator/index.js';

/**
 * The bad-input corpus (test/fixtures/bad/): every malformed project makes `postsync apply --yes`
 * exit 1 with a message naming the file (and line) and saying how to fix it. A bad post file
 * blocks only its own post: it shows as `! blocked`, nothing of it is sent, and the valid post
 * beside it is applied; a bad postsync.yaml stops the whole run, and `apply --strict` sends no
 * write of any kind while any file is bad. The BOM/CRLF/empty-body files that are valid simply
 * apply. A readiness case is a draft that breaks a publishing rule: a warning, and it applies;
 * scheduled, it is an error and only its post is blocked.
 */
const cases = loadBadCases();

/** Emulators handed out one test at a time, so each request log belongs to one CLI run. */
class EmulatorPool {
  private readonly waiting: ((emulator: TestEmulator) => void)[] = [];

  constructor(private readonly free: TestEmulator[]) {}

  async use<T>(work: (emulator: TestEmulator) => Promise<T>): Promise<T> {
    const emulator = this.free.pop() ?? (await new Promise<TestEmulator>((resolve) => this.waiting.push(resolve)));
    try {
      return await work(emulator);
    } finally {
      const next = this.waiting.shift();
      if (next) next(emulator);
      else this.free.push(emulator);
    }
  }
}

/** Every request that could change something: any API method but GET, and storage PUTs. */
const writeRequests = (log: RequestLogEntry[]) => log.filter((entry) => entry.method !== 'GET' && entry.method !== 'HEAD');

const POOL_SIZE = 3;
/** Generous: a test's time includes waiting for a free emulator; this only catches a hung CLI. */
const CASE_TIMEOUT_MS = 120_000;
let emulators: TestEmulator[] = [];
let pool: EmulatorPool;

beforeAll(async () => {
  workspace = await testdir();
  emulators = await Promise.all(Array.from({ length: POOL_SIZE }, () => startTestEmulator()));
  pool = new EmulatorPool([...emulators]);
});
afterAll(() => Promise.all(emulators.map((emulator) => emulator.close())));

/** Holds one folder per case, and `outside/` (a place outside every project). */
let workspace: string;

async function generate(dir: string, item: Generated): Promise<void> {
  const target = join(dir, item.path);
  await mkdir(dirname(target), { recursive: true });
  if (item.kind === 'symlink-outside') {
    const outside = join(workspace, 'outside', 'secret.png');
    await mkdir(dirname(outside), { recursive: true });
    await writeFile(outside, readFileSync(new URL('../../examples/media/cover.png', import.meta.url)));
    await symlink(outside, target);
  } else {
    const head = '---\ntargets: [photo]\nmedia: [media/cover.png]\n---\n';
    await writeFile(target, head + 'a'.repeat(item.bytes - head.length));
  }
}

/**
 * The case's project under the workspace (testdir's per-test cleanup would hook the wrong test
 * when tests run concurrently, so the whole workspace goes when the file is done).
 */
async function project(badCase: BadCase, options: { scheduledAt?: string } = {}): Promise<string> {
  const dir = join(workspace, options.scheduledAt === undefined ? badCase.name : `${badCase.name}-scheduled`);
  for (const [path, contents] of Object.entries(projectFiles(badCase, options))) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), contents);
  }
  for (const item of badCase.generate) await generate(dir, item);
  return dir;
}

function apply(dir: string, emulator: TestEmulator, options: { apiUrlFlag: boolean; strict?: boolean }): Promise<CliResult> {
  const flags = options.apiUrlFlag ? ['--api-url', emulator.baseUrl] : [];
  return runCli([...flags, 'apply', '--yes', ...(options.strict === true ? ['--strict'] : [])], { cwd: dir, env: { POSTSYNC_API_KEY: DEMO_API_KEY } });
}

/** A postsync.yaml case stops the whole run; a post file's case blocks only its own post. */
const projectCases = cases.filter((badCase) => !badCase.valid && !badCase.readiness && badCase.file === 'postsync.yaml');
const fileCases = cases.filter((badCase) => !badCase.valid && !badCase.readiness && badCase.file !== 'postsync.yaml');
/** One case of each kind (the YAML, the schema, a media path, an account, a publishing rule once scheduled) is also applied with --strict. */
const STRICT_CASES = ['yaml-unclosed-quote', 'misspelt-scheduled-at', 'media-missing', 'unknown-alias', 'no-media-for-photo'];

/** The plan line `! blocked <key>  (<file>)`. */
function blockedLine(stdout: string, file: string): string | undefined {
  return stdout.split('\n').find((line) => /^\s*! blocked /.test(line) && line.includes(`(${file})`));
}

/** The output names the case's file (and line), says how to fix it and what the case says. */
function expectNamedAndExplained(output: string, badCase: BadCase, context: string): void {
  expect(output, context).not.toMatch(STACK_FRAME);
  const block = diagnosticBlock(output, badCase.file, badCase.line);
  expect(block, `no line names ${badCase.file}${badCase.line === undefined ? '' : `:${badCase.line}`}\n${context}`).toBeDefined();
  expect(block, `no fix given for ${badCase.file}\n${context}`).toMatch(/hint:|expected|did you mean| — /i);
  for (const text of badCase.says) expect(output.toLowerCase(), context).toContain(text.toLowerCase());
}

/**
 * Only base/posts/valid.md reached the remote (or nothing, when the case blocks it too): one
 * create and the upload of its image, no other create, no edit, no delete, no other upload.
 */
function expectOnlyValidPostSent(run: { posts: { content: string }[]; writes: RequestLogEntry[]; validBlocked: boolean }, context: string): void {
  const sent = run.validBlocked ? 0 : 1;
  expect(run.posts.map((post) => post.content), context).toEqual(run.validBlocked ? [] : [VALID_POST_TEXT]);
  const apiWrites = run.writes.filter((entry) => entry.path.startsWith('/public/v1/'));
  expect(apiWrites.filter((entry) => entry.path.startsWith('/public/v1/posts')).map((entry) => entry.method), context).toEqual(Array<string>(sent).fill('POST'));
  expect(apiWrites.filter((entry) => entry.method === 'POST' && entry.path === '/public/v1/media/uploads'), context).toHaveLength(sent);
}

/** The output line naming `file` (at `line`, when given) and the indented detail lines below it. */
function diagnosticBlock(output: string, file: string, line: number | undefined): string | undefined {
  const lines = output.split('\n');
  const names = (text: string) => (line === undefined ? text.includes(file) : text.includes(`${file}:${line}:`) || text.includes(`${file}:${line} `));
  const start = lines.findIndex(names);
  if (start < 0) return undefined;
  let end = start + 1;
  while (end < lines.length && /^\s+\S/.test(lines[end]!)) end++;
  return lines.slice(start, end).join('\n');
}

const STACK_FRAME = /^\s+at .+:\d+:\d+\)?$/m;

/** A schedule surely in the future, without an offset (read in the base project's time zone). */
const NEXT_YEAR = `${new Date().getUTCFullYear() + 1}-06-01 09:00`;
/** The text of base/posts/valid.md, the one post of every project that is not the case's. */
const VALID_POST_TEXT = 'A valid post next to every bad one: a bad file blocks only its own post, so it applies.';

/** Every post on the emulator (a reset one holds only what the run created). */
async function remotePosts(emulator: TestEmulator): Promise<{ status: string; content: string }[]> {
  const response = await emulator.api<{ data: { items: { status: string; content: string }[] } }>('GET', '/posts?limit=100');
  return response.body.data.items;
}

describe.concurrent('bad input corpus (test/fixtures/bad)', () => {
  it('holds at least 40 malformed inputs, readiness cases among them, and the valid BOM and CRLF files', () => {
    expect(cases.filter((badCase) => !badCase.valid).length).toBeGreaterThanOrEqual(40);
    expect(cases.filter((badCase) => badCase.readiness).length).toBeGreaterThanOrEqual(5);
    expect(cases.filter((badCase) => badCase.valid).map((badCase) => badCase.name)).toEqual(expect.arrayContaining(['valid-bom', 'valid-crlf']));
  });

  it.each(projectCases)('$name: exit 1, names the file, says how to fix it, sends no write', async (badCase) => {
    const dir = await project(badCase);
    const { result, writes } = await pool.use(async (emulator) => {
      await emulator.clearLog();
      const run = await apply(dir, emulator, { apiUrlFlag: badCase.apiUrlFlag });
      return { result: run, writes: writeRequests(await emulator.requestLog()) };
    });
    const output = `${result.stdout}\n${result.stderr}`;
    const context = `${badCase.problem}\n--- output ---\n${output}`;
    expect(result.code, context).toBe(1);
    expect(writes, context).toEqual([]);
    expectNamedAndExplained(output, badCase, context);
  }, CASE_TIMEOUT_MS);

  it.each(fileCases)('$name: exit 1, names the file, says how to fix it; its post is blocked and sent nothing, the other post applies', async (badCase) => {
    const dir = await project(badCase);
    const { result, posts, writes } = await pool.use(async (emulator) => {
      await emulator.reset();
      const run = await apply(dir, emulator, { apiUrlFlag: badCase.apiUrlFlag });
      return { result: run, posts: await remotePosts(emulator), writes: writeRequests(await emulator.requestLog()) };
    });
    const output = `${result.stdout}\n${result.stderr}`;
    const context = `${badCase.problem}\n--- output ---\n${output}`;
    expect(result.code, context).toBe(1);
    expectNamedAndExplained(output, badCase, context);
    expect(blockedLine(result.stdout, badCase.file), `no \`! blocked\` line for ${badCase.file}\n${context}`).toBeDefined();
    expectOnlyValidPostSent({ posts, writes, validBlocked: badCase.alsoBlocks.includes('posts/valid.md') }, context);
    if (badCase.alsoBlocks.includes('posts/valid.md')) expect(result.stdout, context).toMatch(/Nothing was applied: blocked 1 \(invalid files\)/);
    else expect(result.stdout, context).toMatch(/Applied 1, blocked \d+ \(invalid files\): 1 created/);
  }, CASE_TIMEOUT_MS);

  it.each(cases.filter((badCase) => STRICT_CASES.includes(badCase.name)))('$name: apply --strict sends no write of any kind', async (badCase) => {
    const dir = await project(badCase, badCase.readiness ? { scheduledAt: NEXT_YEAR } : {});
    const { result, writes } = await pool.use(async (emulator) => {
      await emulator.reset();
      const run = await apply(dir, emulator, { apiUrlFlag: badCase.apiUrlFlag, strict: true });
      return { result: run, writes: writeRequests(await emulator.requestLog()) };
    });
    const context = `${badCase.problem}\n--- output ---\n${result.stdout}\n${result.stderr}`;
    expect(result.code, context).toBe(1);
    expect(writes, context).toEqual([]);
    expect(result.stdout, context).toContain('Nothing was applied (--strict): fix the errors above first.');
  }, CASE_TIMEOUT_MS);

  it.each(cases.filter((badCase) => badCase.readiness))('$name: a draft, so a warning naming the file, and it applies', async (badCase) => {
    const dir = await project(badCase);
    const { result, posts } = await pool.use(async (emulator) => {
      await emulator.reset();
      const run = await apply(dir, emulator, { apiUrlFlag: badCase.apiUrlFlag });
      return { result: run, posts: await remotePosts(emulator) };
    });
    const output = `${result.stdout}\n${result.stderr}`;
    const context = `${badCase.problem}\n--- output ---\n${output}`;
    expect(result.code, context).toBe(0);
    expect(result.stdout, context).toMatch(/Apply complete: 2 created/);
    expect(result.stdout, context).toContain('1 draft not ready to schedule yet.');
    expect(posts.map((post) => post.status), context).toEqual(['draft', 'draft']);
    expect(output, context).not.toMatch(/\berror\b/);
    const block = diagnosticBlock(output, badCase.file, badCase.line);
    expect(block, `no line names ${badCase.file}${badCase.line === undefined ? '' : `:${badCase.line}`}\n${context}`).toBeDefined();
    expect(block, context).toMatch(/warning not ready to schedule: /);
    expect(block, `no fix given for ${badCase.file}\n${context}`).toMatch(/hint:|expected/i);
    for (const text of badCase.says) expect(output.toLowerCase(), context).toContain(text.toLowerCase());
  }, CASE_TIMEOUT_MS);

  it.each(cases.filter((badCase) => badCase.readiness))('$name: scheduled, an error naming the file; its post is blocked and sent nothing, the other post applies', async (badCase) => {
    const dir = await project(badCase, { scheduledAt: NEXT_YEAR });
    const { result, posts, writes } = await pool.use(async (emulator) => {
      await emulator.reset();
      const run = await apply(dir, emulator, { apiUrlFlag: badCase.apiUrlFlag });
      return { result: run, posts: await remotePosts(emulator), writes: writeRequests(await emulator.requestLog()) };
    });
    const output = `${result.stdout}\n${result.stderr}`;
    const context = `${badCase.problem} (scheduled)\n--- output ---\n${output}`;
    expect(result.code, context).toBe(1);
    expectOnlyValidPostSent({ posts, writes, validBlocked: false }, context);
    expect(blockedLine(result.stdout, badCase.file), `no \`! blocked\` line for ${badCase.file}\n${context}`).toBeDefined();
    expect(output, context).not.toMatch(STACK_FRAME);
    expect(output, context).not.toContain('not ready to schedule');
    const block = diagnosticBlock(output, badCase.file, badCase.line);
    expect(block, `no line names ${badCase.file}${badCase.line === undefined ? '' : `:${badCase.line}`}\n${context}`).toBeDefined();
    expect(block, context).toMatch(/ error /);
    expect(block, `no fix given for ${badCase.file}\n${context}`).toMatch(/hint:|expected/i);
    for (const text of badCase.says) expect(output.toLowerCase(), context).toContain(text.toLowerCase());
  }, CASE_TIMEOUT_MS);

  it.each(cases.filter((badCase) => badCase.valid))('$name: valid, applies, and plans no change afterwards', async (badCase) => {
    const dir = await project(badCase);
    await pool.use(async (emulator) => {
      // A fresh remote: the valid post of an earlier case left there would be adopted, not created.
      await emulator.reset();
      const result = await apply(dir, emulator, { apiUrlFlag: true });
      const context = `${badCase.problem}\n--- output ---\n${result.stdout}\n${result.stderr}`;
      expect(result.code, context).toBe(0);
      expect(result.stdout, context).toMatch(/Apply complete: 2 created/);
      const plan = await runCli(['--api-url', emulator.baseUrl, 'plan', '--detailed-exitcode'], { cwd: dir, env: { POSTSYNC_API_KEY: DEMO_API_KEY } });
      expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    });
  }, CASE_TIMEOUT_MS);
});
