import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_API_KEY } from '../../src/emulator/index.js';
import { prettyCanonicalJson } from '../../src/state/hash.js';
import { journalPathFor } from '../../src/state/journal.js';
import { readState } from '../../src/state/state-file.js';
import { runCli, startCli } from '../helpers/cli.js';
import { makePng } from '../helpers/media-generators/index.js';
import { useEmulator, type TestEmulator } from '../helpers/emulator.js';
import { HoldingProxy } from '../helpers/holding-proxy.js';
import { applyInProcess, expectApplied, inProcess, pending } from '../helpers/in-process.js';
import { demoProject, post } from './project.js';

/**
 * Adopt, don't duplicate: with the state lost or stale and the service's idempotency memory gone
 * (TTL 0: it forgets every key at once), apply still makes no second post of any file.
 */
const emulator = useEmulator({ idempotencyTtlSeconds: 0 });
const env = { POSTSYNC_API_KEY: DEMO_API_KEY };
let proxy: HoldingProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
});

const cliIn = (dir: string, baseUrl: string) => (...args: string[]) => runCli(['--api-url', baseUrl, ...args], { cwd: dir, env });
const remotePosts = async (api: TestEmulator) => (await api.api('GET', '/posts?limit=100')).body.data.items as { id: string; content: string; status: string }[];
/** A project of `files` on a fresh remote, applied once. */
async function appliedProject(api: TestEmulator, files: Record<string, string>) {
  await api.reset();
  const dir = await demoProject(files);
  await expectApplied(dir, api.baseUrl);
  return { dir, cli: cliIn(dir, api.baseUrl) };
}
/** The next plan, made in this process, has nothing to do: what `postsync plan` prints as `No changes.` */
const expectNoChanges = async (dir: string, baseUrl: string) => expect(pending(await inProcess(dir, baseUrl).plan())).toEqual([]);
const creates = async (api: TestEmulator) => (await api.requestLog()).filter((entry) => entry.method === 'POST' && entry.path.endsWith('/posts')).length;

describe('apply with the state file deleted and the idempotency keys forgotten', () => {
  it('adopts every remote post, identical files one each, and the next plan shows no change', async () => {
    const api = emulator();
    const twin = post({ body: 'Same words twice.', media: '[]' });
    const { dir, cli } = await appliedProject(api, { 'a.md': twin, 'b.md': twin, 'c.md': post({ body: 'Something else.', media: '[]' }) });
    expect(await remotePosts(api)).toHaveLength(3);

    await rm(join(dir, '.postsync/state.json'));
    const planned = JSON.parse((await cli('plan', '--json')).stdout);
    expect(planned.summary).toMatchObject({ create: 0, adopt: 3 });
    const adopted = planned.changes.map((change: { action: string; key: string; postId: string }) => [change.action, change.key, change.postId]);
    expect(new Set(adopted.map(([, , postId]: string[]) => postId)).size).toBe(3);

    const applied = await cli('apply', '--yes');
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toContain('≡ adopt');
    expect(applied.stdout).toContain('0 created, 0 updated, 0 deleted, 0 moved, 3 adopted');
    expect(await remotePosts(api)).toHaveLength(3);
    expect(await creates(api)).toBe(3);
    await expectNoChanges(dir, api.baseUrl);
  });

  it('with a third identical file and two identical remote posts, adopts two and creates one', async () => {
    const api = emulator();
    const twin = post({ body: 'Twins.', media: '[]' });
    const { dir, cli } = await appliedProject(api, { 'a.md': twin, 'b.md': twin });
    await rm(join(dir, '.postsync/state.json'));
    await writeFile(join(dir, 'posts/c.md'), twin);

    const applied = await cli('apply', '--yes');
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toContain('1 created, 0 updated, 0 deleted, 0 moved, 2 adopted');
    expect(await remotePosts(api)).toHaveLength(3);
    await expectNoChanges(dir, api.baseUrl);
  });
});

describe('apply with the state file deleted: posts with media, known by content from the service', () => {
  const files = {
    'photo.md': post({ body: 'A picture.', targets: '[photo]', media: '[media/cover.png]' }),
    'film.md': post({ body: 'A film.', targets: '[short]', media: '[media/teaser.mp4]', scheduledAt: '2031-03-01 09:00' }),
  };
  const writesAndUploads = async (api: TestEmulator) =>
    (await api.requestLog()).filter((entry) => (entry.method === 'POST' && (entry.path.endsWith('/posts') || entry.path.includes('/media/'))) || entry.method === 'PUT' || entry.method === 'PATCH');

  it('adopts every post, uploads nothing, records the media, and the next plan shows no change', async () => {
    const api = emulator();
    const { dir, cli } = await appliedProject(api, files);
    const before = Object.values((await readState(join(dir, '.postsync/state.json'))).targets)[0]!;
    await rm(join(dir, '.postsync/state.json'));

    await api.clearLog();
    // A plan file carries what apply records: the media of each adopted post.
    expect((await cli('plan', '--out', 'plan.json')).code).toBe(0);
    const planned = JSON.parse(await readFile(join(dir, 'plan.json'), 'utf8'));
    expect(planned.summary).toMatchObject({ create: 0, adopt: 2 });
    expect(planned.uploads).toEqual([]);
    const recorded = planned.changes.flatMap((change: { mediaRecords?: { sha256: string; mediaId: string }[] }) => change.mediaRecords ?? []);
    expect(new Map(recorded.map((media: { sha256: string; mediaId: string }) => [media.sha256, media.mediaId]))).toEqual(
      new Map(Object.entries(before.media).map(([sha256, media]) => [sha256, media.mediaId])),
    );
    // Each remote media was fetched once, from the emulator's storage.
    const fetched = (await api.requestLog()).filter((entry) => entry.method === 'GET' && entry.path.startsWith('/_storage/'));
    expect(fetched).toHaveLength(2);

    const applied = await cli('apply', 'plan.json', '--yes');
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toContain('0 created, 0 updated, 0 deleted, 0 moved, 2 adopted');
    expect(await writesAndUploads(api)).toEqual([]);
    expect(await remotePosts(api)).toHaveLength(2);
    const after = Object.values((await readState(join(dir, '.postsync/state.json'))).targets)[0]!;
    expect(Object.keys(after.media).sort()).toEqual(Object.keys(before.media).sort());
    for (const [sha256, media] of Object.entries(after.media)) {
      expect(media).toMatchObject({ mediaId: before.media[sha256]!.mediaId, sizeBytes: before.media[sha256]!.sizeBytes, contentType: before.media[sha256]!.contentType });
    }

    // Known again, nothing is fetched: the next plan reads no media and shows no change.
    await api.clearLog();
    await expectNoChanges(dir, api.baseUrl);
    expect((await api.requestLog()).filter((entry) => entry.path.startsWith('/_storage/'))).toEqual([]);
    await writeFile(join(dir, 'posts/more.md'), post({ body: 'More.', media: '[media/cover.png]' }));
    await api.clearLog();
    expect((await applyInProcess(dir, api.baseUrl)).counts).toEqual({ create: 1 });
    expect((await api.requestLog()).filter((entry) => entry.path.startsWith('/_storage/') || entry.path.includes('/media/'))).toEqual([]);
  });

  it('holds a near-match (same text, another image) until a person recreates it; the other post is adopted', async () => {
    const api = emulator();
    const { dir, cli } = await appliedProject(api, files);
    await rm(join(dir, '.postsync/state.json'));
    await writeFile(join(dir, 'media/other.png'), makePng({ width: 1080, height: 1080, rgb: { r: 10, g: 200, b: 30 } }));
    await writeFile(join(dir, 'posts/photo.md'), post({ body: 'A picture.', targets: '[photo]', media: '[media/other.png]' }));

    const planned = await cli('plan');
    expect(planned.stdout).toMatch(/≡ adopt\s+film/);
    expect(planned.stdout).toMatch(/! blocked\s+photo/);
    expect(planned.stdout).toMatch(/looks like this post but is not certainly it: [0-9a-f-]+ \(draft, created [^;]+; differs in media\)/);
    expect(planned.stdout).toContain('`postsync apply --recreate photo`');
    await api.clearLog();
    const applied = await cli('apply', '--yes', '--recreate', 'photo');
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toContain('1 created, 0 updated, 0 deleted, 0 moved, 1 adopted');
    // Only the new image is uploaded.
    expect((await api.requestLog()).filter((entry) => entry.method === 'PUT' && entry.path.startsWith('/_storage/'))).toHaveLength(1);
    expect((await remotePosts(api)).map((item) => item.content).sort()).toEqual(['A film.', 'A picture.', 'A picture.']);
    await expectNoChanges(dir, api.baseUrl);
  });
});

describe('apply with a stale state that lost its post records (media records kept)', () => {
  it('adopts the scheduled post, and holds a near-match until a person adopts it, which the next apply puts back to the file', async () => {
    const api = emulator();
    await api.reset();
    const dir = await demoProject({
      'launch.md': post({ body: 'Launch day.', scheduledAt: '2031-03-01 09:00' }),
      'teaser.md': post({ body: 'A teaser.', scheduledAt: '2031-03-02 09:00' }),
    });
    const cli = cliIn(dir, api.baseUrl);
    await expectApplied(dir, api.baseUrl);
    const statePath = join(dir, '.postsync/state.json');
    const state = JSON.parse(await readFile(statePath, 'utf8'));
    for (const section of Object.values(state.targets) as { posts: object }[]) section.posts = {};
    await writeFile(statePath, prettyCanonicalJson(state));
    // The teaser's file moves it by a day: the remote post is a near-match, not this post.
    await writeFile(join(dir, 'posts/teaser.md'), post({ body: 'A teaser.', scheduledAt: '2031-03-03 09:00' }));

    const planned = await cli('plan');
    expect(planned.stdout).toMatch(/≡ adopt\s+launch/);
    expect(planned.stdout).toMatch(/! blocked\s+teaser/);
    expect(planned.stdout).toContain('differs in scheduledAt');
    expect(planned.stdout).toContain('Plan: 0 to create, 0 to update, 0 to delete, 1 to adopt. 1 blocked.');
    expect((await applyInProcess(dir, api.baseUrl)).counts).toEqual({ adopt: 1 });
    const teaser = (await remotePosts(api)).find((item) => item.content === 'A teaser.')!;
    const adopted = await cli('apply', '--yes', '--adopt', `teaser=${teaser.id}`);
    expect(adopted.stdout).toContain('0 created, 0 updated, 0 deleted, 0 moved, 1 adopted');
    expect((await applyInProcess(dir, api.baseUrl)).counts).toEqual({ update: 1 });
    const remote = await remotePosts(api);
    expect(remote.map((item) => item.content).sort()).toEqual(['A teaser.', 'Launch day.']);
    await expectNoChanges(dir, api.baseUrl);
  });
});

describe('an apply killed after its create, whose pending record was then lost', () => {
  it('adopts the post the killed run made: one remote post', async () => {
    const api = emulator();
    await api.reset();
    proxy = await HoldingProxy.start(api.baseUrl);
    const dir = await demoProject({ 'launch.md': post({ body: 'First words.' }) });
    const held = proxy.holdNext((method, path) => method === 'POST' && path.endsWith('/posts'));
    const run = startCli(['--api-url', proxy.baseUrl, 'apply', '--yes'], { cwd: dir, env });
    expect((await held).status).toBe(201);
    run.child.kill('SIGKILL');
    expect((await run.done).signal).toBe('SIGKILL');

    // The state as the killed run left it (journal replayed), less its pending record.
    const statePath = join(dir, '.postsync/state.json');
    const state = await readState(statePath);
    const section = Object.values(state.targets)[0]!;
    expect(Object.keys(section.pending)).toEqual(['launch']);
    section.pending = {};
    await writeFile(statePath, prettyCanonicalJson(state));
    await rm(journalPathFor(statePath), { force: true });

    expect((await applyInProcess(dir, proxy.baseUrl)).counts).toEqual({ adopt: 1 });
    expect(await remotePosts(api)).toHaveLength(1);
    expect(await creates(api)).toBe(1);
    await expectNoChanges(dir, proxy.baseUrl);
  });
});

describe('an apply killed after its create, its pending record kept, the key forgotten by the service', () => {
  /** A project whose first apply was killed once its create was answered: the pending record is kept. */
  async function interruptedProject(api: TestEmulator) {
    await api.reset();
    proxy = await HoldingProxy.start(api.baseUrl);
    const dir = await demoProject({ 'launch.md': post({ body: 'First words.', scheduledAt: '2031-03-03 09:00' }) });
    const held = proxy.holdNext((method, path) => method === 'POST' && path.endsWith('/posts'));
    const run = startCli(['--api-url', proxy.baseUrl, 'apply', '--yes'], { cwd: dir, env });
    expect((await held).status).toBe(201);
    run.child.kill('SIGKILL');
    expect((await run.done).signal).toBe('SIGKILL');
    return { dir, cli: cliIn(dir, proxy.baseUrl) };
  }

  it('takes the post the killed run made instead of sending the create again, then edits it to the file: one remote post', async () => {
    const api = emulator();
    const { dir, cli } = await interruptedProject(api);
    const made = (await remotePosts(api))[0]!;
    await writeFile(join(dir, 'posts/launch.md'), post({ body: 'Better words.', scheduledAt: '2031-03-03 09:00' }));

    const plan = JSON.parse((await cli('plan', '--json')).stdout);
    expect(plan.changes).toMatchObject([{ action: 'create', reason: 'interrupted-create', resumesPending: true, postId: made.id }]);
    expect((await cli('plan')).stdout).toContain(`the post it made (${made.id}) is on the remote: taken, the create is not sent again`);
    const again = await cli('apply', '--yes');
    expect(again.code, again.stderr).toBe(0);
    expect(await creates(api)).toBe(1);
    expect(await remotePosts(api)).toMatchObject([{ id: made.id, content: 'Better words.', status: 'scheduled' }]);
    await expectNoChanges(dir, proxy!.baseUrl);
  });

  it('a file removed meanwhile: its post is found and goes back to draft, never a second post', async () => {
    const api = emulator();
    const { dir } = await interruptedProject(api);
    await rm(join(dir, 'posts/launch.md'));
    await applyInProcess(dir, proxy!.baseUrl);
    expect(await creates(api)).toBe(1);
    expect(await remotePosts(api)).toMatchObject([{ content: 'First words.', status: 'draft' }]);
  });
});
