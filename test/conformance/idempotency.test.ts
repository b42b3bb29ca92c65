import { describe, expect, it } from 'vitest';
import { ErrorCodes } from '../../src/api/error-codes.js';
import { testdir } from '../helpers/testdir.js';
import type { ApiClient, Reply } from './client.js';
import { expectError } from './client.js';
import { KEYS } from './fixture.js';
import { draftBody } from './flows.js';
import { useConformance } from './harness.js';

/**
 * POST /posts with Idempotency-Key: same key and payload → the same post; same key, other
 * payload → 422; a concurrent repeat → either the same post or 409 idempotency_in_progress with
 * Retry-After, and never a second post. Concurrency is tried in memory and with the journal
 * (`dataDir`), where a create stays in progress while its journal entry is synced.
 */
const inMemory = useConformance();
const journaled = useConformance(async () => ({ dataDir: await testdir() }));

let keyCounter = 0;
const newKey = (): string => `conformance-${process.pid}-${(keyCounter += 1)}`;

const create = (api: ApiClient, key: string, body: Record<string, unknown>): Promise<Reply> =>
  api.post('/posts', body, { headers: { 'idempotency-key': key } });

/** How many posts of the project hold exactly this content. */
async function postsWithContent(api: ApiClient, content: string): Promise<number> {
  const reply = await api.get('/posts', { query: { q: content, limit: 100 } });
  return reply.body.data.items.filter((post: { content: string }) => post.content === content).length;
}

/** Sends `count` creates with one key at once; checks the outcome and returns the post id and the 409 count. */
async function race(api: ApiClient, count: number): Promise<{ id: string; inProgress: number }> {
  const key = newKey();
  const body = draftBody();
  const replies = await Promise.all(Array.from({ length: count }, () => create(api, key, body)));
  const created = replies.filter((reply) => reply.status === 201);
  const refused = replies.filter((reply) => reply.status !== 201);
  for (const reply of refused) {
    expectError(reply, 409, ErrorCodes.idempotencyInProgress);
    expect(reply.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
  }
  expect(created.length, 'the first request of the race creates the post').toBeGreaterThanOrEqual(1);
  const id: string = created[0]!.body.data.id;
  for (const reply of created) expect(reply.body.data.id).toBe(id);
  // The race is over: a retry now gets the same post, and only one post exists.
  const retry = await create(api, key, body);
  expect(retry.status).toBe(201);
  expect(retry.body.data.id).toBe(id);
  expect(await postsWithContent(api, body.content as string)).toBe(1);
  return { id, inProgress: refused.length };
}

describe('Idempotency-Key on POST /posts', () => {
  it('same key and same payload give the same 201 response (the same post), once', async () => {
    const api = inMemory().api();
    const key = newKey();
    const body = draftBody();
    const first = await create(api, key, body);
    const again = await create(api, key, { ...body });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body.data).toEqual(first.body.data);
    expect(await postsWithContent(api, body.content as string)).toBe(1);
  });

  it('the same key with a different payload is 422 and creates nothing', async () => {
    const api = inMemory().api();
    const key = newKey();
    const body = draftBody();
    expect((await create(api, key, body)).status).toBe(201);
    const changed = { ...body, content: `${body.content as string} (changed)` };
    expectError(await create(api, key, changed), 422, ErrorCodes.idempotencyKeyReused);
    expect(await postsWithContent(api, changed.content)).toBe(0);
  });

  it('keys belong to one project: another project may use the same key', async () => {
    const key = newKey();
    const mine = await create(inMemory().api(), key, draftBody());
    const theirs = await create(inMemory().api(KEYS.other), key, draftBody());
    expect(theirs.status).toBe(201);
    expect(theirs.body.data.id).not.toBe(mine.body.data.id);
  });

  it('a 5xx answer is not remembered: the retry with the same key creates the post', async () => {
    const api = inMemory().api();
    const key = newKey();
    const body = draftBody();
    try {
      await inMemory().control.faults('rate=1,kinds=503');
      expectError(await create(api, key, body), 503);
    } finally {
      await inMemory().control.faults('');
    }
    const retry = await create(api, key, body);
    expect(retry.status).toBe(201);
    expect(await postsWithContent(api, body.content as string)).toBe(1);
  });

  it('keys are kept 24 hours of emulator time (documented choice)', async () => {
    const api = inMemory().api();
    const key = newKey();
    const first = await create(api, key, draftBody());
    await inMemory().control.advanceClock(23 * 3600);
    expectError(await create(api, key, draftBody()), 422, ErrorCodes.idempotencyKeyReused);
    await inMemory().control.advanceClock(3600 + 60);
    const reused = await create(api, key, draftBody());
    expect(reused.status).toBe(201);
    expect(reused.body.data.id).not.toBe(first.body.data.id);
  });

  it('two concurrent requests with one key (in memory) give one post', async () => {
    await race(inMemory().api(), 2);
  });

  it('two concurrent requests with one key (journal) give one post, the repeat a 409 in progress', async () => {
    // Whether the repeat lands while the first is still syncing depends on scheduling, so the
    // race is run until the 409 shows up (it does on the first try in practice); every run must
    // still end with exactly one post.
    let inProgress = 0;
    for (let attempt = 0; attempt < 10 && inProgress === 0; attempt += 1) inProgress += (await race(journaled().api(), 2)).inProgress;
    expect(inProgress, 'a concurrent repeat answered 409 idempotency_in_progress').toBeGreaterThan(0);
  });
});
