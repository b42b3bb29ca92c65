import { describe, expect, it } from 'vitest';
import { ErrorCodes } from '../../src/api/error-codes.js';
import type { Post } from '../../src/api/types.js';
import { expectError } from './client.js';
import { ACCOUNTS } from './fixture.js';
import { createPost, draftBody, getPost, later, uploadImage, walkPages } from './flows.js';
import { useConformance } from './harness.js';

/** Posts: targets as the spec describes them, the draft/scheduled transition, edits and publication. */
const emulator = useConformance();

describe('POST /posts and targets', () => {
  it('empty targets and mediaIds give an editable draft without targets', async () => {
    const post = await createPost(emulator().api(), draftBody());
    expect(post).toMatchObject({ status: 'draft', scheduledAt: null, targets: [], media: [] });
    const edited = await emulator().api().patch('/posts/{id}', { content: 'edited' }, { params: { id: post.id } });
    expect(edited.status).toBe(200);
  });

  it('targets take platform and handle from the account, start pending, echo the options and add response-only fields', async () => {
    const body = draftBody({
      targets: [
        { socialAccountId: ACCOUNTS.photo, options: { format: 'feed', shareToFeed: true } },
        { socialAccountId: ACCOUNTS.video, options: { vidATitle: 'Launch', vidATags: ['launch'] }, contentOverride: 'For video' },
        { socialAccountId: ACCOUNTS.short, options: { shortBAllowDuet: false } },
      ],
    });
    const post = await createPost(emulator().api(), body);
    const [photo, video, short] = post.targets;
    expect(photo).toMatchObject({ socialAccountId: ACCOUNTS.photo, platform: 'photoC', handle: '@acme.photo', status: 'pending' });
    expect(photo!.options).toMatchObject({ format: 'feed', shareToFeed: true });
    expect(video).toMatchObject({ platform: 'vidA', handle: '@acme.video', status: 'pending', contentOverride: 'For video' });
    expect(video!.options).toMatchObject({ vidATitle: 'Launch', vidATags: ['launch'] });
    expect(video!.options.vidAPrivacy).toEqual(expect.any(String));
    expect(short).toMatchObject({ platform: 'shortB', handle: '@acme.short', status: 'pending' });
    expect(short!.options.shortBAllowDuet).toBe(false);
    expect(short!.options.shortBMode).toEqual(expect.any(String));
    expect(short!.options.shortBPrivacy).toEqual(expect.any(String));
    expect(await getPost(emulator().api(), post.id)).toEqual(post);
  });

  it('a create needs content, targets and mediaIds (documented choice); an empty options object stays empty', async () => {
    const missing = await emulator().api().post('/posts', { content: 'only content' });
    const messages = expectError(missing, 400, ErrorCodes.validationFailed).join('\n');
    expect(messages).toMatch(/targets/);
    expect(messages).toMatch(/mediaIds/);
    const post = await createPost(emulator().api(), draftBody({ targets: [{ socialAccountId: ACCOUNTS.photo }] }));
    expect(post.targets[0]?.options).toEqual({});
  });

  it('target options follow the account’s capabilities: unlisted fields are refused; a required one is needed to schedule, not in a draft', async () => {
    const api = emulator().api();
    const at = later(await emulator().control.now(), 86_400);
    let requiredSeen = 0;
    for (const accountId of [ACCOUNTS.photo, ACCOUNTS.video, ACCOUNTS.short]) {
      const capabilities = await api.get('/accounts/{accountId}/capabilities', { params: { accountId } });
      const rules = capabilities.body.data.rules.options as Record<string, { required?: boolean }>;
      const foreign = ['format', 'vidATitle', 'shortBCaption'].find((field) => !(field in rules))!;
      const required = Object.fromEntries(Object.entries(rules).filter(([, rule]) => rule.required).map(([name]) => [name, 'x']));
      const unlisted = await api.post('/posts', draftBody({ targets: [{ socialAccountId: accountId, options: { ...required, [foreign]: 'x' } }] }));
      expect(expectError(unlisted, 400).join('\n')).toContain(foreign);
      for (const name of Object.keys(required)) {
        requiredSeen += 1;
        const draft = await api.post('/posts', draftBody({ targets: [{ socialAccountId: accountId, options: {} }] }));
        expect(draft.status, JSON.stringify(draft.body)).toBe(201);
        const scheduling = await api.patch('/posts/{id}', { scheduledAt: at }, { params: { id: draft.body.data.id } });
        expect(expectError(scheduling, 400).join('\n')).toContain(name);
        const scheduled = await api.post('/posts', draftBody({ targets: [{ socialAccountId: accountId, options: {} }], scheduledAt: at }));
        expect(expectError(scheduled, 400).join('\n')).toContain(name);
      }
      expect((await api.post('/posts', draftBody({ targets: [{ socialAccountId: accountId, options: required }] }))).status).toBe(201);
    }
    expect(requiredSeen).toBeGreaterThan(0);
  });

  it('scheduledAt must be RFC 3339 with Z or an offset, and in the future', async () => {
    const api = emulator().api();
    const post = await createPost(api, draftBody({ targets: [{ socialAccountId: ACCOUNTS.photo }], mediaIds: [(await uploadImage(emulator())).id] }));
    const now = await emulator().control.now();
    const instant = later(now, 86_400);
    // The same instant written with a +02:00 offset.
    const withOffset = new Date(Date.parse(instant) + 2 * 3600_000).toISOString().replace('Z', '+02:00');
    const accepted = await api.patch('/posts/{id}', { scheduledAt: withOffset }, { params: { id: post.id } });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(Date.parse(accepted.body.data.scheduledAt)).toBe(Date.parse(instant));
    for (const bad of [instant.replace('Z', ''), instant.slice(0, 10), 'tomorrow', later(now, -3600), 1_900_000_000]) {
      expectError(await api.patch('/posts/{id}', { scheduledAt: bad }, { params: { id: post.id } }), 400);
    }
  });

  it('an empty PATCH is refused', async () => {
    const post = await createPost(emulator().api());
    expectError(await emulator().api().patch('/posts/{id}', {}, { params: { id: post.id } }), 400);
  });
});

describe('GET /posts filters', () => {
  it('platform values are open: a platform the service has no rules for is a valid filter', async () => {
    const api = emulator().api();
    const photo = await createPost(api, draftBody({ targets: [{ socialAccountId: ACCOUNTS.photo }] }));
    const otherD = await api.get('/posts', { query: { platform: 'otherD', limit: 100 } });
    expect(otherD.status).toBe(200);
    expect(otherD.body.data.items).toEqual([]);
    const photoC = (await walkPages(api, { platform: 'photoC', limit: 100 })).flatMap((page) => page.items);
    expect(photoC.map((post) => post.id)).toContain(photo.id);
    expect(photoC.every((post) => post.targets.some((target) => target.platform === 'photoC'))).toBe(true);
  });
});

describe('draft ⇄ scheduled', () => {
  it('PATCH scheduledAt sets a schedule; PATCH scheduledAt null returns the post to draft and clears it', async () => {
    const api = emulator().api();
    const image = await uploadImage(emulator());
    const post = await createPost(api, draftBody({ targets: [{ socialAccountId: ACCOUNTS.photo }], mediaIds: [image.id] }));
    const at = later(await emulator().control.now(), 3 * 86_400);
    const scheduled = await api.patch('/posts/{id}', { scheduledAt: at }, { params: { id: post.id } });
    expect(scheduled.body.data).toMatchObject({ status: 'scheduled' });
    expect(Date.parse(scheduled.body.data.scheduledAt)).toBe(Date.parse(at));
    const back = await api.patch('/posts/{id}', { scheduledAt: null }, { params: { id: post.id } });
    expect(back.status).toBe(200);
    expect(back.body.data).toMatchObject({ status: 'draft', scheduledAt: null });
    expect((await getPost(api, post.id)).status).toBe('draft');
  });
});

describe('publication on the emulator clock', () => {
  async function publishedPost(): Promise<Post> {
    const api = emulator().api();
    const image = await uploadImage(emulator());
    const now = await emulator().control.now();
    const post = await createPost(
      api,
      draftBody({
        targets: [{ socialAccountId: ACCOUNTS.photo }, { socialAccountId: ACCOUNTS.failing }, { socialAccountId: ACCOUNTS.throttled }],
        mediaIds: [image.id],
        scheduledAt: later(now, 600),
      }),
    );
    await emulator().control.advanceClock(700);
    return getPost(api, post.id);
  }

  it('a due post publishes: targets get a status, external id and time, or an error, or a wait reason', async () => {
    const post = await publishedPost();
    const [photo, failing, throttled] = post.targets;
    expect(post.status).not.toBe('scheduled');
    expect(photo).toMatchObject({ status: 'published', externalPostId: expect.any(String), publishedAt: expect.any(String) });
    expect(failing?.error).toEqual(expect.any(String));
    expect(throttled?.waitReason).toEqual(expect.any(String));
    expect(Date.parse(throttled?.nextAttemptAt ?? '')).toBeGreaterThan(Date.parse(photo?.publishedAt ?? ''));
    await emulator().control.advanceClock(3600);
    const retried = await getPost(emulator().api(), post.id);
    expect(retried.targets[2]).toMatchObject({ externalPostId: expect.any(String), publishedAt: expect.any(String) });
  });

  it('a published post cannot be edited or deleted (409 post_not_editable)', async () => {
    const post = await publishedPost();
    const api = emulator().api();
    expectError(await api.patch('/posts/{id}', { content: 'too late' }, { params: { id: post.id } }), 409, ErrorCodes.postNotEditable);
    expectError(await api.patch('/posts/{id}', { scheduledAt: null }, { params: { id: post.id } }), 409, ErrorCodes.postNotEditable);
    expectError(await api.delete('/posts/{id}', { params: { id: post.id } }), 409, ErrorCodes.postNotEditable);
    expect((await getPost(api, post.id)).content).toBe(post.content);
  });

  it('analytics list one item per published target, filtered and paged with the opaque cursor', async () => {
    const api = emulator().api();
    const post = await publishedPost();
    await emulator().control.advanceClock(3600);
    const items: { postId: string; socialAccountId: string; platform: string }[] = [];
    let cursor: string | undefined;
    do {
      const reply = await api.get('/analytics/posts', { query: { limit: 1, cursor } });
      expect(reply.status).toBe(200);
      items.push(...reply.body.data.items);
      cursor = reply.body.data.nextCursor ?? undefined;
    } while (cursor);
    const mine = items.filter((item) => item.postId === post.id).map((item) => item.socialAccountId);
    expect([...mine].sort()).toEqual([ACCOUNTS.photo, ACCOUNTS.throttled].sort());
    const one = await api.get('/analytics/posts', { query: { accountId: ACCOUNTS.photo } });
    expect(one.body.data.items.every((item: { socialAccountId: string }) => item.socialAccountId === ACCOUNTS.photo)).toBe(true);
    const none = await api.get('/analytics/posts', { query: { platform: 'vidA' } });
    expect(none.body.data.items).toEqual([]);
    const future = await api.get('/analytics/posts', { query: { from: later(await emulator().control.now(), 60) } });
    expect(future.body.data.items).toEqual([]);
    // A cursor belongs to its filters (documented choice): changing them between pages is refused.
    const first = await api.get('/analytics/posts', { query: { limit: 1 } });
    const changed = await api.get('/analytics/posts', { query: { limit: 1, platform: 'photoC', cursor: first.body.data.nextCursor } });
    expectError(changed, 400);
  });
});

describe('DELETE /posts/{id}', () => {
  it('deletes a draft: { deleted: true }, then 404', async () => {
    const api = emulator().api();
    const post = await createPost(api);
    const reply = await api.delete('/posts/{id}', { params: { id: post.id } });
    expect(reply.status).toBe(200);
    expect(reply.body.data).toEqual({ deleted: true });
    expectError(await api.get('/posts/{id}', { params: { id: post.id } }), 404);
  });
});
