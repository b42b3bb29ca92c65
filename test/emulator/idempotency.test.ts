import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startTestEmulator, useEmulator, type TestEmulator } from '../helpers/emulator.js';
import { ACME, postBody, testFixture } from './support.js';

const emulator = useEmulator({ fixture: testFixture() });

const createWithKey = (target: TestEmulator, key: string, body: unknown) =>
  target.api('POST', '/posts', { key: 'acme-full', body, headers: { 'Idempotency-Key': key } });

async function countWithContent(target: TestEmulator, content: string): Promise<number> {
  const list = await target.api('GET', `/posts?q=${encodeURIComponent(content)}&limit=100`, { key: 'acme-full' });
  return list.body.data.items.filter((p: any) => p.content === content).length;
}

describe('Idempotency-Key on POST /posts', () => {
  it('answers the same 201 (same post) for the same key and payload, in any key order', async () => {
    const body = postBody(ACME.photo, { content: 'idem-1' });
    const first = await createWithKey(emulator(), 'key-1', body);
    expect(first.status).toBe(201);
    const reordered = { mediaIds: [], targets: body.targets, content: 'idem-1' };
    const again = await createWithKey(emulator(), 'key-1', reordered);
    expect(again.status).toBe(201);
    expect(again.body.data).toEqual(first.body.data);
    expect(again.body.meta.requestId).not.toBe(first.body.meta.requestId);
    expect(again.headers.get('x-request-id')).toBe(again.body.meta.requestId);
    expect(await countWithContent(emulator(), 'idem-1')).toBe(1);
  });

  it('answers 422 idempotency_key_reused for the same key with another payload', async () => {
    await createWithKey(emulator(), 'key-2', postBody(ACME.photo, { content: 'idem-2' }));
    const reused = await createWithKey(emulator(), 'key-2', postBody(ACME.photo, { content: 'idem-2 changed' }));
    expect(reused.status).toBe(422);
    expect(reused.body.error.code).toBe('idempotency_key_reused');
    expect(await countWithContent(emulator(), 'idem-2 changed')).toBe(0);
  });

  it('keeps keys per project', async () => {
    const mine = await createWithKey(emulator(), 'shared-key', postBody(ACME.photo, { content: 'idem-3' }));
    const theirs = await emulator().api('POST', '/posts', { key: 'other-a', body: postBody('22222222-2222-4222-8222-000000000001', { content: 'idem-3' }), headers: { 'Idempotency-Key': 'shared-key' } });
    expect(theirs.status).toBe(201);
    expect(theirs.body.data.id).not.toBe(mine.body.data.id);
  });

  it('does not remember refused requests: a corrected payload may reuse the key', async () => {
    const refused = await createWithKey(emulator(), 'key-4', { content: 'idem-4' });
    expect(refused.status).toBe(400);
    const fixed = await createWithKey(emulator(), 'key-4', postBody(ACME.photo, { content: 'idem-4' }));
    expect(fixed.status).toBe(201);
  });

  it('does not remember 5xx or 429 answers', async () => {
    const body = postBody(ACME.photo, { content: 'idem-5' });
    for (const kind of ['500', '503', '429']) {
      await emulator().setFaults(`rate=1,seed=1,kinds=${kind}`);
      const failed = await createWithKey(emulator(), 'key-5', body);
      expect(failed.status).toBe(Number(kind));
      if (kind === '429') expect(failed.headers.get('retry-after')).toBe('1');
    }
    await emulator().setFaults('rate=0');
    const created = await createWithKey(emulator(), 'key-5', body);
    expect(created.status).toBe(201);
    expect(await countWithContent(emulator(), 'idem-5')).toBe(1);
  });

  it('forgets keys after 24 hours of emulator time', async () => {
    const first = await createWithKey(emulator(), 'key-6', postBody(ACME.photo, { content: 'idem-6' }));
    await emulator().advanceClock(24 * 3600 - 60);
    expect((await createWithKey(emulator(), 'key-6', postBody(ACME.photo, { content: 'idem-6' }))).body.data.id).toBe(first.body.data.id);
    await emulator().advanceClock(120);
    const later = await createWithKey(emulator(), 'key-6', postBody(ACME.photo, { content: 'idem-6' }));
    expect(later.status).toBe(201);
    expect(later.body.data.id).not.toBe(first.body.data.id);
  });

  it('refuses an empty or oversized key', async () => {
    const long = await createWithKey(emulator(), 'k'.repeat(256), postBody(ACME.photo));
    expect(long.status).toBe(400);
  });
});

describe('two concurrent requests with one key', () => {
  async function race(target: TestEmulator, content: string): Promise<void> {
    const body = postBody(ACME.photo, { content });
    const answers = await Promise.all(Array.from({ length: 6 }, () => createWithKey(target, `race-${content}`, body)));
    const created = answers.filter((a) => a.status === 201);
    const busy = answers.filter((a) => a.status === 409);
    expect(created.length + busy.length).toBe(answers.length);
    expect(new Set(created.map((a) => a.body.data.id)).size).toBe(1);
    for (const answer of busy) {
      expect(answer.body.error.code).toBe('idempotency_in_progress');
      expect(answer.headers.get('retry-after')).toMatch(/^\d+$/);
    }
    const retry = await createWithKey(target, `race-${content}`, body);
    expect(retry.status).toBe(201);
    expect(retry.body.data.id).toBe(created[0]?.body.data.id);
    expect(await countWithContent(target, content)).toBe(1);
  }

  it('creates one post in memory', async () => {
    await race(emulator(), 'race-memory');
  });

  it('creates one post with the journal (the key stays in progress until the fsync)', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'postsync-idem-'));
    const journaled = await startTestEmulator({ fixture: testFixture(), dataDir });
    try {
      await race(journaled, 'race-journal');
    } finally {
      await journaled.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
