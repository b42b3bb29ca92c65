import { readFileSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_API_KEY } from '../../src/emulator/index.js';
import { demoFixture } from '../../src/emulator/fixture/demo-fixture.js';
import { runCli } from '../helpers/cli.js';
import { useEmulator, type TestEmulator } from '../helpers/emulator.js';
import { applyInProcess, expectApplied, inProcess } from '../helpers/in-process.js';
import { testdir } from '../helpers/testdir.js';
import { post } from './project.js';

/**
 * The state file is committed, so a pull request can edit it. A record no apply of this repository
 * wrote (no seal, or a seal made for another calendar, key or post) is never acted on.
 */
const ROTATED_KEY = 'demo-key-rotated';
const fixture = demoFixture();
fixture.projects[0]!.keys.push({ ...fixture.projects[0]!.keys[0]!, token: ROTATED_KEY });
const emulator = useEmulator({ fixture });
/** Generous, for a loaded machine. */
const TIMEOUT_MS = 180_000;

const media = (name: string) => readFileSync(new URL(`../../examples/media/${name}`, import.meta.url));
const config = 'timezone: Europe/Berlin\naccounts:\n  photo: 6f1c2d6e-0a55-4c59-9d0f-3b8f5d1a7e01\n';

interface Section {
  posts: Record<string, { postId: string; seal?: string } & Record<string, unknown>>;
  pending: Record<string, Record<string, unknown>>;
  media: Record<string, { mediaId: string } & Record<string, unknown>>;
}

/** A git repository (a `.git` folder is enough) holding two calendars, `a/` and `b/`, each with posts. */
async function twoCalendars(posts: { a: Record<string, string>; b: Record<string, string> }) {
  const files: Record<string, string | Buffer> = {};
  for (const calendar of ['a', 'b'] as const) {
    files[`${calendar}/postsync.yaml`] = config;
    files[`${calendar}/media/cover.png`] = media('cover.png');
    for (const [name, text] of Object.entries(posts[calendar])) files[`${calendar}/posts/${name}`] = text;
  }
  const repo = await testdir(files);
  await mkdir(join(repo, '.git'));
  return repo;
}

function calendar(api: TestEmulator, dir: string, key = DEMO_API_KEY) {
  const statePath = join(dir, '.postsync/state.json');
  const cli = (...args: string[]) => runCli(['--api-url', api.baseUrl, ...args], { cwd: dir, env: { POSTSYNC_API_KEY: key } });
  // Where a case proves what is planned or applied, not what the command line prints: in this process.
  const planned = async (postKey: string) => (await inProcess(dir, api.baseUrl, { key }).plan()).changes.find((change) => change.key === postKey);
  const apply = (options: { prune?: boolean } = {}) => applyInProcess(dir, api.baseUrl, { key, ...options });
  const read = async (): Promise<{ version: 1; targets: Record<string, Section> }> => JSON.parse(await readFile(statePath, 'utf8'));
  const section = async () => Object.values((await read()).targets)[0]!;
  const edit = async (change: (section: Section) => void) => {
    const state = await read();
    change(Object.values(state.targets)[0]!);
    await writeFile(statePath, `${JSON.stringify(state, null, 2)}\n`);
  };
  return { dir, cli, planned, apply, section, edit };
}

const text = (body: string) => post({ body, media: '[]' });
const remote = async (api: TestEmulator, id: string) => (await api.api('GET', `/posts/${id}`)).body.data as { content: string; status: string; media: { id: string }[] };

/** Two calendars applied, A's post `hello` on the remote, and a record of B's state made to point at it. */
async function stolenRecord(api: TestEmulator, record: (a: Section, b: Section) => Section['posts'][string]) {
  await api.reset();
  const repo = await twoCalendars({ a: { 'hello.md': text('Calendar A says hello.') }, b: { 'mine.md': text('Calendar B.'), 'stolen.md': text('Overwritten by B.') } });
  const a = calendar(api, join(repo, 'a'));
  await expectApplied(a.dir, api.baseUrl);
  const b = calendar(api, join(repo, 'b'));
  await rm(join(b.dir, 'posts/stolen.md'));
  await expectApplied(b.dir, api.baseUrl);
  await writeFile(join(b.dir, 'posts/stolen.md'), text('Overwritten by B.'));
  const aSection = await a.section();
  const target = aSection.posts.hello!.postId;
  const bSection = await b.section();
  await b.edit((section) => void (section.posts.stolen = record(aSection, bSection)));
  return { a, b, target };
}

describe('a record that no apply of this repository wrote', () => {
  const cases: [string, (a: Section, b: Section) => Section['posts'][string]][] = [
    ['copied whole from another calendar folder of the repository', (a) => ({ ...a.posts.hello! })],
    ['re-pointed at another post id (seal of its own kept)', (a, b) => ({ ...b.posts.mine!, postId: a.posts.hello!.postId })],
    ['added without a seal', (a) => ({ ...a.posts.hello!, seal: undefined })],
  ];
  for (const [index, [name, record]] of cases.entries()) {
    it(`${name}: the plan blocks it, apply and apply --prune leave the remote post alone`, async () => {
      const api = emulator();
      const { b, target } = await stolenRecord(api, record);
      const plan = JSON.parse((await b.cli('plan', '--json')).stdout) as { summary: unknown; changes: { action: string; key: string; reason?: string; reasons: string[] }[] };
      const change = plan.changes.find((candidate) => candidate.key === 'stolen');
      expect(change).toMatchObject({ action: 'blocked', reason: 'unconfirmed-record' });
      expect(change!.reasons.join(' ')).toContain('postsync state confirm');
      expect(plan.summary).toMatchObject({ blocked: 1, unconfirmedRecords: 1, blockedByErrors: 0 });
      // The block reads the same for every kind of record: the terminal and Markdown plans are read once.
      if (index === 0) {
        const human = await b.cli('plan');
        expect(human.stdout).toContain('not written by an apply of this repository');
        expect(human.stdout).toContain('1 blocked (unconfirmed state records).');
        expect((await b.cli('plan', '--markdown')).stdout).toContain('not written by an apply of this repository');
      }

      await b.apply();
      expect((await remote(api, target)).content).toBe('Calendar A says hello.');
      await rm(join(b.dir, 'posts/stolen.md'));
      expect((await b.cli('apply', '--yes', '--prune')).code).toBe(0);
      expect((await remote(api, target)).content).toBe('Calendar A says hello.');
      expect((await b.section()).posts.stolen?.postId).toBe(target);
    }, TIMEOUT_MS);
  }

  it('a forged pending create is never resent', async () => {
    const api = emulator();
    const { a, b, target } = await stolenRecord(api, (_a, bSection) => bSection.posts.mine!);
    await b.edit((section) => {
      delete section.posts.stolen;
      section.pending.stolen = { file: 'posts/stolen.md', idempotencyKey: 'psync-forged', payload: { content: 'Calendar A says hello.', targets: [], mediaIds: [] }, shapeHash: 'f'.repeat(64), startedAt: new Date().toISOString() };
    });
    expect(await b.planned('stolen')).toMatchObject({ action: 'blocked', reason: 'unconfirmed-record' });
    await api.clearLog();
    await b.apply({ prune: true });
    expect((await api.requestLog()).filter((entry) => entry.method === 'POST')).toEqual([]);
    expect((await b.section()).posts.stolen).toBeUndefined();
    expect((await a.section()).posts.hello!.postId).toBe(target);
  }, TIMEOUT_MS);

  it('a forged media record is ignored: the media is uploaded again', async () => {
    const api = emulator();
    await api.reset();
    const repo = await twoCalendars({ a: { 'hello.md': text('A.') }, b: { 'photo.md': text('B.') } });
    const b = calendar(api, join(repo, 'b'));
    await b.apply();
    const other = (await api.api('POST', '/media', { body: { contentType: 'image/png', sizeBytes: 8, filename: 'x.png' } })).body;
    const forgedId = other?.data?.media?.id ?? 'med_forged';
    const sha256 = (await import('node:crypto')).createHash('sha256').update(media('cover.png')).digest('hex');
    await b.edit((section) => void (section.media[sha256] = { mediaId: forgedId, sizeBytes: 1, contentType: 'image/png', uploadedAt: new Date().toISOString() }));
    await writeFile(join(b.dir, 'posts/photo.md'), post({ body: 'B with a photo.' }));
    await expectApplied(b.dir, api.baseUrl);
    const record = (await b.section()).posts.photo!;
    const used = (await remote(api, record.postId)).media.map((item) => item.id);
    expect(used).toHaveLength(1);
    expect(used[0]).not.toBe(forgedId);
    expect((await b.section()).media[sha256]).toMatchObject({ mediaId: used[0], seal: expect.any(String) });
  }, TIMEOUT_MS);
});

describe('postsync state confirm', () => {
  /** Calendar `b/` of a repository, with posts `one` and `two` applied. */
  async function appliedOneAndTwo(api: TestEmulator) {
    await api.reset();
    const repo = await twoCalendars({ a: {}, b: { 'one.md': text('One.'), 'two.md': text('Two.') } });
    const b = calendar(api, join(repo, 'b'));
    await expectApplied(b.dir, api.baseUrl);
    return b;
  }

  it('lists and seals the records named, and the next plan acts on them', async () => {
    const api = emulator();
    const b = await appliedOneAndTwo(api);
    await b.edit((section) => {
      for (const record of Object.values(section.posts)) delete record.seal;
    });
    await writeFile(join(b.dir, 'posts/one.md'), text('One, edited.'));
    expect(await b.planned('one')).toMatchObject({ action: 'blocked', reason: 'unconfirmed-record' });

    const refused = await b.cli('state', 'confirm', 'one');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('--yes');
    expect(await b.planned('one')).toMatchObject({ action: 'blocked' });

    const unknown = await b.cli('state', 'confirm', 'nope', '--yes');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('"nope"');

    const confirmed = await b.cli('state', 'confirm', 'one', '--yes');
    expect(confirmed.code, confirmed.stderr).toBe(0);
    const id = (await b.section()).posts.one!.postId;
    expect(confirmed.stdout).toContain(id);
    expect(confirmed.stdout).toContain('One.');
    expect(await b.planned('one')).toMatchObject({ action: 'update' });
    expect(await b.planned('two')).toMatchObject({ action: 'blocked' });
    await b.apply();
    expect((await remote(api, id)).content).toBe('One, edited.');
  }, TIMEOUT_MS);

  it('after a key rotation every record is unconfirmed, and confirm --all recovers', async () => {
    const api = emulator();
    const b = await appliedOneAndTwo(api);
    const rotated = calendar(api, b.dir, ROTATED_KEY);
    await writeFile(join(b.dir, 'posts/one.md'), text('One, edited.'));
    expect(await rotated.planned('one')).toMatchObject({ action: 'blocked', reason: 'unconfirmed-record' });
    expect(await rotated.planned('two')).toMatchObject({ action: 'blocked', reason: 'unconfirmed-record' });

    const confirmed = await rotated.cli('state', 'confirm', '--all', '--yes');
    expect(confirmed.code, confirmed.stderr).toBe(0);
    expect(confirmed.stdout).toContain('one');
    expect(confirmed.stdout).toContain('two');
    expect(await rotated.planned('one')).toMatchObject({ action: 'update' });
    expect(await rotated.planned('two')).toMatchObject({ action: 'noop' });
    // The old key's seals are gone: records are confirmed by one key at a time.
    expect(await b.planned('two')).toMatchObject({ action: 'blocked' });
  }, TIMEOUT_MS);
});

describe('two calendars of one repository against one target', () => {
  it('each create of the same post key and text makes its own post', async () => {
    const api = emulator();
    await api.reset();
    const repo = await twoCalendars({ a: { 'hello.md': text('Same words.') }, b: { 'hello.md': text('Same words.') } });
    const a = calendar(api, join(repo, 'a'));
    const b = calendar(api, join(repo, 'b'));
    // B plans before A applies (a new file adopts a post already there; a create races it).
    expect((await b.cli('plan', '--out', 'plan.json')).code).toBe(0);
    await expectApplied(a.dir, api.baseUrl);
    const fromPlan = await b.cli('apply', 'plan.json', '--yes');
    expect(fromPlan.code, fromPlan.stderr).toBe(0);
    const [ida, idb] = [(await a.section()).posts.hello!.postId, (await b.section()).posts.hello!.postId];
    expect(ida).not.toBe(idb);
  }, TIMEOUT_MS);
});
