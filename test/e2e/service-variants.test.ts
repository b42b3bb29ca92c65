import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_API_KEY } from '../../src/emulator/index.js';
import { runCli } from '../helpers/cli.js';
import { useEmulator, type TestEmulator } from '../helpers/emulator.js';
import { SERVICE_VARIANTS, TIDYING_VARIANTS, variantOf } from '../helpers/service-variants.js';
import { VariantProxy } from '../helpers/variant-proxy.js';
import { applied, inProcess, pending } from '../helpers/in-process.js';
import { demoProject, post } from './project.js';

/**
 * The main flow against a service that answers where the spec says "not shown" otherwise than
 * the emulator (other session field names, media kinds, target statuses, `rules.options`
 * vocabularies, an empty end cursor): it converges, never crashes and never makes a second post.
 * The idempotency keys are forgotten at once (TTL 0), so a lost state is recovered by adoption only.
 */
const emulator = useEmulator({ idempotencyTtlSeconds: 0 });
/** Several CLI runs per test: generous, it only catches a hung CLI. */
const TIMEOUT_MS = 120_000;
let proxy: VariantProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
});

const cliIn = (dir: string, baseUrl: string) => (...args: string[]) => runCli(['--api-url', baseUrl, ...args], { cwd: dir, env: { POSTSYNC_API_KEY: DEMO_API_KEY } });
const remoteContents = async (api: TestEmulator) => ((await api.api('GET', '/posts?limit=100')).body.data.items as { content: string }[]).map((p) => p.content).sort();

const scheduledPhoto = [
  '---',
  'scheduledAt: 2031-03-01 09:00',
  'targets:',
  '  - account: photo',
  '    options: { format: feed, shareToFeed: true }',
  'media: [media/cover.png]',
  '---',
  'Scheduled with options.',
  '',
].join('\n');

describe.each(SERVICE_VARIANTS.map((variant) => [variant.name, variant] as const))('the main flow when the service answers with %s', (_name, variant) => {
  it('plans, applies, converges, edits, prunes and adopts after a lost state, with no second post', async () => {
    const api = emulator();
    await api.reset();
    proxy = await VariantProxy.start(api.baseUrl, variant);
    const dir = await demoProject({
      'launch.md': post({ body: 'We launch on Monday.' }),
      'teaser.md': post({ body: 'A first look.', targets: '[short]', media: '[media/teaser.mp4]' }),
      'scheduled.md': scheduledPhoto,
    });
    const run = inProcess(dir, proxy.baseUrl);

    const plan = await run.plan();
    expect(plan.diagnostics).toEqual([]);
    expect(plan.summary).toMatchObject({ create: 3, update: 0, delete: 0 });

    let outcome = applied(await run.apply());
    expect(outcome).toMatchObject({ counts: { create: 3 }, failed: [] });
    expect(await remoteContents(api)).toEqual(['A first look.', 'Scheduled with options.', 'We launch on Monday.']);
    expect(pending(await run.plan())).toEqual([]);

    await writeFile(join(dir, 'posts/launch.md'), post({ body: 'We launch on Tuesday.' }));
    await rm(join(dir, 'posts/scheduled.md'));
    outcome = applied(await run.apply({ prune: true }));
    expect(outcome.failed).toEqual([]);
    expect(await remoteContents(api)).toEqual(['A first look.', 'We launch on Tuesday.']);

    await rm(join(dir, '.postsync/state.json'));
    outcome = applied(await run.apply());
    expect(outcome).toEqual({ counts: { adopt: 2 }, failed: [], blocked: 0 });
    expect(await remoteContents(api)).toEqual(['A first look.', 'We launch on Tuesday.']);
    expect(pending(await run.plan())).toEqual([]);
  }, TIMEOUT_MS);
});

/** Files with every form a service may tidy: a hard break, a decomposed accent, vidA tags and a title, two media. */
const tidyFiles = {
  'launch.md': post({ body: 'We launch on Monday:  \nCafe\u0301 opens at nine.' }),
  'teaser.md': [
    '---',
    'scheduledAt: 2031-03-02 10:30',
    'targets:',
    '  - account: video',
    "    options: { vidATitle: 'A   first   look', vidATags: ['#Launch', 'Teaser'] }",
    'media: [media/teaser.mp4]',
    '---',
    'A first look.  ',
    '',
  ].join('\n'),
  'scheduled.md': scheduledPhoto.replace('media: [media/cover.png]', 'media: [media/cover.png, media/beans.jpg]'),
};

/** A post the service holds and the file lost its state for is adopted, or held with its candidates: adopted so by a person, the next apply puts the file back. */
async function adoptOrHold(run: ReturnType<typeof inProcess>, api: TestEmulator, posts: number): Promise<void> {
  const outcome = applied(await run.apply());
  expect(outcome.counts.create ?? 0).toBe(0);
  expect((await remoteContents(api)).length).toBe(posts);
  const held = (await run.plan()).changes.filter((change) => change.action === 'blocked');
  expect(held.map((change) => change.reason).every((reason) => reason === 'adopt-uncertain' || reason === 'adopt-ambiguous')).toBe(true);
  if (held.length > 0) {
    const adopt = new Map(held.map((change) => [change.key, change.details[0]!.code === 'adopt-ambiguous' || change.details[0]!.code === 'adopt-uncertain' ? change.details[0]!.candidates[0]!.postId : '']));
    const chosen = applied(await run.apply({ choices: { adopt, recreate: { all: false, keys: new Set() } } }));
    expect(chosen).toMatchObject({ counts: { adopt: held.length }, failed: [] });
    expect(applied(await run.apply()).failed).toEqual([]);
  }
  expect(pending(await run.plan())).toEqual([]);
  expect((await remoteContents(api)).length).toBe(posts);
}

async function tidyProject(): Promise<string> {
  const dir = await demoProject(tidyFiles);
  await writeFile(join(dir, 'media/beans.jpg'), await readFile(new URL('../../examples/media/beans.jpg', import.meta.url)));
  return dir;
}

/**
 * Each single tidying: apply, plan = 0 changes (right after, and once a lagging read caught up), a lost
 * state = adopt or hold. The edit and prune between them prove nothing new per tidying: the "all of it"
 * variant below runs the whole flow, and its plans go through the CLI once.
 */
describe.each(TIDYING_VARIANTS.filter((variant) => variant.name !== 'all of it').map((variant) => [variant.name, variant] as const))('a service that keeps a tidied form: %s', (_name, variant) => {
  it('converges after the apply, and a lost state with forgotten keys adopts or holds, never creates', async () => {
    const api = emulator();
    await api.reset();
    proxy = await VariantProxy.start(api.baseUrl, variant);
    const dir = await tidyProject();
    const run = inProcess(dir, proxy.baseUrl);

    expect(applied(await run.apply())).toMatchObject({ counts: { create: 3 }, failed: [] });
    expect(pending(await run.plan())).toEqual([]);
    await proxy.settled();
    expect(pending(await run.plan())).toEqual([]);
    expect((await remoteContents(api)).length).toBe(3);

    await rm(join(dir, '.postsync/state.json'));
    await adoptOrHold(run, api, 3);
  }, TIMEOUT_MS);
});

describe('the main flow when the service keeps every tidied form, touches and lags', () => {
  it('converges after every apply, and a lost state with forgotten keys adopts or holds, never creates', async () => {
    const api = emulator();
    await api.reset();
    const all = TIDYING_VARIANTS.find((variant) => variant.name === 'all of it')!;
    proxy = await VariantProxy.start(api.baseUrl, { ...all, readLagMs: 2500 });
    const dir = await tidyProject();
    const run = inProcess(dir, proxy.baseUrl);
    const cli = cliIn(dir, proxy.baseUrl);

    let result = await cli('apply', '--yes');
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toContain('3 created');
    // Right after the apply (a lagging read may not show the posts yet), and once the reads caught up.
    expect(pending(await run.plan())).toEqual([]);
    await proxy.settled();
    result = await cli('plan', '--detailed-exitcode');
    expect([result.code, result.stdout]).toEqual([0, expect.stringContaining('No changes.')]);

    await writeFile(join(dir, 'posts/launch.md'), post({ body: 'We launch on Tuesday:  \nCafe\u0301 opens at ten.' }));
    await rm(join(dir, 'posts/scheduled.md'));
    expect(applied(await run.apply({ prune: true }))).toEqual({ counts: { update: 1, delete: 1 }, failed: [], blocked: 0 });
    expect(pending(await run.plan())).toEqual([]);
    await proxy.settled();
    expect(pending(await run.plan())).toEqual([]);
    expect((await remoteContents(api)).length).toBe(2);

    await rm(join(dir, '.postsync/state.json'));
    await adoptOrHold(run, api, 2);
  }, TIMEOUT_MS);
});

describe('a state written before observed shapes, against a service that tidies and touches its posts', () => {
  it('reads, plans no change, and the first apply records what the service keeps', async () => {
    const api = emulator();
    await api.reset();
    proxy = await VariantProxy.start(api.baseUrl, TIDYING_VARIANTS.find((variant) => variant.name === 'all of it')!);
    const dir = await tidyProject();
    const run = inProcess(dir, proxy.baseUrl);
    expect(applied(await run.apply()).failed).toEqual([]);
    // As an older postsync wrote it: no observed shape in any record.
    const statePath = join(dir, '.postsync/state.json');
    const state = JSON.parse(await readFile(statePath, 'utf8')) as { targets: Record<string, { posts: Record<string, { observedHash?: string }> }> };
    const records = () => Object.values(state.targets).flatMap((section) => Object.values(section.posts));
    for (const record of records()) delete record.observedHash;
    await writeFile(statePath, `${JSON.stringify(state, null, 2)}\n`);

    expect(pending(await run.plan())).toEqual([]);
    expect(applied(await run.apply()).failed).toEqual([]);
    const after = JSON.parse(await readFile(statePath, 'utf8')) as typeof state;
    expect(Object.values(after.targets).flatMap((section) => Object.values(section.posts)).map((record) => typeof record.observedHash)).toEqual(['string', 'string', 'string']);
    expect(pending(await run.plan())).toEqual([]);
  }, TIMEOUT_MS);
});

describe.each([202, 204] as const)('a PATCH answered %i with no body (the write landed)', (status) => {
  it('reads the post back: the apply succeeds and the next plan is empty', async () => {
    const api = emulator();
    await api.reset();
    proxy = await VariantProxy.start(api.baseUrl, { name: 'accepted', rewrite: (_exchange, data) => data, patchAnswer: status });
    const dir = await demoProject({ 'launch.md': post({ body: 'We launch on Monday.', scheduledAt: '2031-03-03 09:00' }) });
    const run = inProcess(dir, proxy.baseUrl);
    expect(applied(await run.apply()).failed).toEqual([]);
    await writeFile(join(dir, 'posts/launch.md'), post({ body: 'We launch on Tuesday.', scheduledAt: '2031-03-03 09:00' }));
    expect(applied(await run.apply())).toEqual({ counts: { update: 1 }, failed: [], blocked: 0 });
    expect(await remoteContents(api)).toEqual(['We launch on Tuesday.']);
    expect(pending(await run.plan())).toEqual([]);
  }, TIMEOUT_MS);
});

describe('a session answer without the one field postsync needs', () => {
  it('stops every command with exit 1 and names the endpoint and the field, never a TypeError', async () => {
    const api = emulator();
    proxy = await VariantProxy.start(api.baseUrl, variantOf('no project', { session: 'flat' }));
    proxy.variant = { name: 'no project', rewrite: (exchange, data) => (exchange.path === '/auth/session' ? { permissions: [], owner: 'someone' } : data) };
    const dir = await demoProject({ 'launch.md': post({ body: 'We launch on Monday.' }) });
    const result = await cliIn(dir, proxy.baseUrl)('plan');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('GET /auth/session: field `project.id` missing (found: permissions, owner)');
    expect(result.stderr).not.toContain('TypeError');
    expect(result.stderr).not.toContain('Cannot read properties');
  }, TIMEOUT_MS);
});

describe('a capabilities answer without rules postsync checks posts by', () => {
  it('stops with exit 1 naming the endpoint and the field, never a TypeError', async () => {
    const api = emulator();
    proxy = await VariantProxy.start(api.baseUrl, {
      name: 'no caption rules',
      rewrite: (exchange, data) => {
        if (exchange.path.endsWith('/capabilities')) delete (data as { rules: { caption?: unknown } }).rules.caption;
        return data;
      },
    });
    const dir = await demoProject({ 'launch.md': post({ body: 'We launch on Monday.' }) });
    const result = await cliIn(dir, proxy.baseUrl)('plan');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/GET \/accounts\/[0-9a-f-]+\/capabilities: field `rules\.caption` missing \(found: /);
    expect(result.stderr).not.toContain('Cannot read properties');
  }, TIMEOUT_MS);
});

describe('posts answered without their empty lists, or without an id', () => {
  it('reads a missing `media` or `targets` as none, and a post without an id is a clear error', async () => {
    const api = emulator();
    await api.reset();
    const dropEmpty = (post: Record<string, unknown>) => {
      for (const field of ['media', 'targets']) if (Array.isArray(post[field]) && (post[field] as unknown[]).length === 0) delete post[field];
    };
    proxy = await VariantProxy.start(api.baseUrl, {
      name: 'no empty lists',
      rewrite: (exchange, data) => {
        if (!exchange.path.startsWith('/posts')) return data;
        const page = data as { items?: Record<string, unknown>[] };
        for (const post of page.items ?? [data as Record<string, unknown>]) dropEmpty(post);
        return data;
      },
    });
    const dir = await demoProject({ 'note.md': post({ body: 'A bare draft.', targets: '[]', media: '[]' }) });
    const run = inProcess(dir, proxy.baseUrl);
    expect(applied(await run.apply()).failed).toEqual([]);
    expect(pending(await run.plan())).toEqual([]);

    proxy.variant = { name: 'no ids', rewrite: (exchange, data) => (exchange.path === '/posts' ? { ...(data as object), items: (data as { items: object[] }).items.map(({ id: _id, ...rest }: { id?: string }) => rest) } : data) };
    const result = await cliIn(dir, proxy.baseUrl)('plan');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/GET \/posts: field `items\[0\]\.id` missing \(found: /);
  }, TIMEOUT_MS);
});

describe('a service that fills in option defaults the files leave unset', () => {
  it('sees no change in an owned post, published or not, and renames it with no API call', async () => {
    const api = emulator();
    await api.reset();
    proxy = await VariantProxy.start(api.baseUrl, variantOf('option defaults', { optionDefaults: { photoC: { format: 'feed', shareToFeed: true } } }));
    const dir = await demoProject({ 'launch.md': post({ body: 'We launch on Monday.', scheduledAt: '2031-03-03 09:00' }), 'later.md': post({ body: 'Later.', scheduledAt: '2031-03-10 09:00' }) });
    const run = inProcess(dir, proxy.baseUrl);
    expect(applied(await run.apply()).failed).toEqual([]);

    // Published by the service (its updatedAt moves): still what the file says, not an edit to block.
    await api.setClock(new Date('2031-03-04T00:00:00Z'));
    expect(pending(await run.plan())).toEqual([]);
    // The health check's other half agrees with the plan, through the CLI.
    expect((await cliIn(dir, proxy.baseUrl)('status', '--problems')).stdout).toContain('No problems: no managed post is drifted');

    await rename(join(dir, 'posts/later.md'), join(dir, 'posts/later-renamed.md'));
    expect(pending(await run.plan())).toEqual(['move later-renamed']);
  }, TIMEOUT_MS);
});
