import { spawn, type ChildProcess } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, DEMO_API_KEY } from '../../src/emulator/index.js';
import { mulberry32 } from '../../src/emulator/http/chaos.js';
import { CLI, cliEnv } from '../helpers/cli.js';
import { postBody } from './support.js';

// Several processes serving one --data folder (what the embedded local API of a `watch` beside an
// `apply` is): each must see the others' writes before it answers, and none may be lost, also when
// a process is killed (-9) in the middle of its work.

const dirs: string[] = [];
const children = new Set<ChildProcess>();
afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

async function freshDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'postsync-shared-'));
  dirs.push(dir);
  return dir;
}

interface Served {
  baseUrl: string;
  child: ChildProcess;
  /** Resolves when the process has exited. */
  exited: Promise<void>;
  stderr(): string;
}

/** `postsync serve --data <dir>` in its own process, once it prints its address. */
function serve(dataDir: string, options: { uid?: number } = {}): Promise<Served> {
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--data', dataDir], { env: cliEnv(), stdio: ['ignore', 'pipe', 'pipe'], ...options });
  children.add(child);
  let stdout = '';
  let stderr = '';
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
  void exited.then(() => children.delete(child));
  return new Promise((resolve, reject) => {
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const m = /listening on (\S+)/.exec(stdout);
      if (m) resolve({ baseUrl: m[1] as string, child, exited, stderr: () => stderr });
    });
    void exited.then(() => reject(new Error(`serve exited before listening:\n${stderr}`)));
  });
}

async function stop(served: Served, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  served.child.kill(signal);
  await served.exited;
}

async function call(served: Served, method: string, path: string, options: { body?: unknown; headers?: Record<string, string> } = {}): Promise<{ status: number; body: any }> {
  const headers: Record<string, string> = { Authorization: `Bearer ${DEMO_API_KEY}`, ...options.headers };
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(`${served.baseUrl}${path}`, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

const create = (served: Served, content: string, key?: string) =>
  call(served, 'POST', '/posts', { body: postBody(DEMO_ACCOUNTS.photo, { content }), headers: key ? { 'Idempotency-Key': key } : {} });

/** Every post's content by id, as this process lists them. */
async function contents(served: Served): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  let cursor: string | null = null;
  do {
    const page = await call(served, 'GET', `/posts?limit=100${cursor ? `&after=${encodeURIComponent(cursor)}` : ''}`);
    expect(page.status).toBe(200);
    for (const post of page.body.data.items) found.set(post.id, post.content);
    cursor = page.body.data.nextCursor;
  } while (cursor);
  return found;
}

describe('one --data folder served by several processes', () => {
  it('shows each process the writes of the others at once, and a process started and stopped beside them loses nothing', async () => {
    const dataDir = await freshDir();
    const a = await serve(dataDir);
    const b = await serve(dataDir);
    const fromA = await create(a, 'made through A');
    expect(fromA.status).toBe(201);
    expect((await call(b, 'GET', `/posts/${fromA.body.data.id}`)).body.data.content).toBe('made through A');
    const fromB = await create(b, 'made through B');
    expect((await call(a, 'PATCH', `/posts/${fromB.body.data.id}`, { body: { content: 'B’s post, edited through A' } })).status).toBe(200);
    expect((await call(b, 'GET', `/posts/${fromB.body.data.id}`)).body.data.content).toBe('B’s post, edited through A');
    expect((await call(b, 'DELETE', `/posts/${fromA.body.data.id}`)).status).toBe(200);
    expect((await call(a, 'GET', `/posts/${fromA.body.data.id}`)).status).toBe(404);

    // A short-lived process (a `plan`) starts and stops beside them: their later writes survive it.
    await stop(await serve(dataDir));
    const later = await create(a, 'made through A after the plan');
    await stop(a, 'SIGKILL');
    await stop(b);

    const after = await serve(dataDir);
    expect([...(await contents(after)).values()].sort()).toEqual(['B’s post, edited through A', 'made through A after the plan']);
    expect((await call(after, 'GET', `/posts/${later.body.data.id}`)).status).toBe(200);
    await stop(after);
  });

  it('keeps every create of two processes writing at once, each post once', async () => {
    const dataDir = await freshDir();
    const [a, b] = await Promise.all([serve(dataDir), serve(dataDir)]);
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => create(i % 2 === 0 ? a : b, `post ${i}`, `key-${i}`)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(40).fill(201));
    // The same keys again, each through the other process: the same posts, none made twice.
    const again = await Promise.all(Array.from({ length: 40 }, (_, i) => create(i % 2 === 0 ? b : a, `post ${i}`, `key-${i}`)));
    expect(again.map((answer) => answer.body.data.id)).toEqual(answers.map((answer) => answer.body.data.id));
    const seenByA = await contents(a);
    expect(seenByA.size).toBe(40);
    expect(await contents(b)).toEqual(seenByA);
    await Promise.all([stop(a), stop(b)]);
  });

  it('loses no answered write and makes no post twice when either process is killed (-9) at random points', async () => {
    const random = mulberry32(39);
    const dataDir = await freshDir();
    const servers = await Promise.all([serve(dataDir), serve(dataDir)]);
    const keys = Array.from({ length: 24 }, (_, i) => `kill-${i}`);
    /** The post id each key's create was answered with, and the content each answered edit set. */
    const made = new Map<string, string>();
    const edited = new Map<string, string>();
    /** Edits sent after the last answered one whose answer was lost: the store may hold any of them. */
    const unanswered = new Map<string, string[]>();
    for (let round = 0; round < 6; round++) {
      const victim = Math.floor(random() * 2);
      const delayMs = Math.floor(random() * 60);
      const work = keys.map(async (key, i) => {
        const served = servers[(i + round) % 2] as Served;
        const id = made.get(key);
        if (id === undefined) {
          const answer = await create(served, `post ${key}`, key).catch(() => undefined);
          if (answer?.status === 201) {
            if (made.has(key)) expect(answer.body.data.id).toBe(made.get(key));
            made.set(key, answer.body.data.id);
          }
        } else {
          const content = `post ${key}, round ${round}`;
          const answer = await call(served, 'PATCH', `/posts/${id}`, { body: { content } }).catch(() => undefined);
          if (answer?.status === 200) {
            edited.set(key, content);
            unanswered.delete(key);
          } else {
            unanswered.set(key, [...(unanswered.get(key) ?? []), content]);
          }
        }
      });
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      await stop(servers[victim] as Served, 'SIGKILL');
      await Promise.all(work);
      servers[victim] = await serve(dataDir);
    }
    // Every key once more, so all are made; then both processes show the same store.
    for (const key of keys) if (!made.has(key)) made.set(key, (await create(servers[0] as Served, `post ${key}`, key)).body.data.id);
    const [first, second] = servers as [Served, Served];
    const seen = await contents(first);
    expect(await contents(second)).toEqual(seen);
    expect(seen.size).toBe(keys.length);
    for (const key of keys) expect([edited.get(key) ?? `post ${key}`, ...(unanswered.get(key) ?? [])]).toContain(seen.get(made.get(key) as string));
    await Promise.all(servers.map((served) => stop(served, 'SIGKILL')));
    const fresh = await serve(dataDir);
    expect(await contents(fresh)).toEqual(seen);
    await stop(fresh);
  });

  it('refuses, saying why, to serve a folder this user may not write', async () => {
    const parent = await freshDir();
    await chmod(parent, 0o755);
    const dataDir = join(parent, 'data');
    await mkdir(dataDir);
    // As root, the folder is another user's (root's) for the child run as nobody; else it is read-only.
    const asRoot = process.getuid?.() === 0;
    if (!asRoot) await chmod(dataDir, 0o555);
    const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--data', join(dataDir, 'local-api')], { env: cliEnv(), ...(asRoot ? { uid: 65534, gid: 65534 } : {}) });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(code).toBe(1);
    expect(stderr).toContain(`the local API's data folder ${join(dataDir, 'local-api')} cannot be shared with this process: this user (uid ${asRoot ? 65534 : process.getuid?.()}) may not write in it (it belongs to uid ${process.getuid?.()})`);
    expect(stderr).toContain('run postsync as the user who owns it');
    expect(stderr).not.toMatch(/\n\s+at /);
  });
});
