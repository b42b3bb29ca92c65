import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.js';
import { DEMO_API_KEY } from '../../src/emulator/index.js';
import { InputError } from '../../src/errors.js';
import { confirmState, type UnconfirmedRecord } from '../../src/pipeline/confirm-state.js';
import { connect, type Connection } from '../../src/pipeline/connect.js';
import { unconfirmedRecords } from '../../src/state/seal.js';
import { readStateSection } from '../../src/state/state-file.js';
import { StateStore } from '../../src/state/state-store.js';
import { useEmulator } from '../helpers/emulator.js';
import { testSeal } from '../helpers/seal.js';
import { testdir } from '../helpers/testdir.js';

const emulator = useEmulator();
const SHA = 'a'.repeat(64);
const GONE_ID = '00000000-0000-4000-8000-000000000000';
const at = '2026-01-01T00:00:00.000Z';

/** A calendar whose state holds one record of each kind, sealed with a key since rotated, and one sealed with today's key. */
async function rotatedState(): Promise<{ connection: Connection; config: Awaited<ReturnType<typeof loadConfig>>; liveId: string }> {
  const api = emulator();
  const dir = await testdir({ 'postsync.yaml': 'timezone: Europe/Berlin\n' });
  const config = await loadConfig({ cwd: dir, env: { POSTSYNC_API_KEY: DEMO_API_KEY }, flags: { apiUrl: api.baseUrl } });
  const connection = await connect(config, { ci: false });
  const live = (await api.api('POST', '/posts', { body: { content: 'A post with a fairly long text that the list shows the start of', targets: [], mediaIds: [] } })).body.data as { id: string };
  const old = await StateStore.open(config.statePath, connection.project, { seal: testSeal(connection.project, { apiKey: 'rotated-away' }) });
  const record = { file: 'posts/x.md', appliedHash: SHA, remoteUpdatedAt: at, appliedAt: at };
  await old.completeCreate('live', { ...record, postId: live.id });
  await old.completeCreate('gone', { ...record, postId: GONE_ID });
  await old.recordPending('waiting', { file: 'posts/waiting.md', idempotencyKey: 'psync-w', payload: { content: 'Pending text', targets: [], mediaIds: [] }, shapeHash: SHA, startedAt: at });
  await old.recordMedia(SHA, { mediaId: 'm-1', sizeBytes: 1, contentType: 'image/png', uploadedAt: at });
  await old.recordUpload('b'.repeat(64), { mediaId: 'm-2', partSizeBytes: 5, partCount: 2, startedAt: at });
  await old.checkpoint();
  const current = await StateStore.open(config.statePath, connection.project, { seal: connection.seal });
  await current.completeCreate('sealed', { ...record, postId: live.id });
  await current.checkpoint();
  return { connection, config, liveId: live.id };
}

const unconfirmedNow = async (world: Awaited<ReturnType<typeof rotatedState>>) =>
  unconfirmedRecords((await readStateSection(world.config.statePath, world.connection.project)).section, world.connection.seal);

describe('confirmState', () => {
  it('--all lists every record without a valid seal with what the remote says, and seals nothing when declined', async () => {
    const world = await rotatedState();
    try {
      let shown: UnconfirmedRecord[] = [];
      const declined = await confirmState({ ...world, select: { all: true }, approve: async (records) => ((shown = records), false) });
      expect(declined.kind).toBe('declined');
      expect(shown).toEqual([
        { kind: 'posts', key: 'gone', remoteId: GONE_ID, status: 'not found', text: null },
        { kind: 'posts', key: 'live', remoteId: world.liveId, status: 'draft', text: 'A post with a fairly long text that the list shows the start of' },
        { kind: 'pending', key: 'waiting', remoteId: null, status: 'create pending', text: 'Pending text' },
        { kind: 'media', key: SHA, remoteId: 'm-1', status: null, text: null },
        { kind: 'uploads', key: 'b'.repeat(64), remoteId: 'm-2', status: null, text: null },
      ]);
      expect((await unconfirmedNow(world)).posts.size).toBe(2);

      expect((await confirmState({ ...world, select: { all: true }, approve: async () => true })).kind).toBe('confirmed');
      expect(Object.values(await unconfirmedNow(world)).map((keys) => keys.size)).toEqual([0, 0, 0, 0]);
      const again = await confirmState({ ...world, select: { all: true }, approve: async () => true });
      expect(again).toEqual({ kind: 'nothing', records: [] });
    } finally {
      await world.connection.close();
    }
  });

  it('by key: seals those named (a post or a pending create), skips those sealed already, refuses a key not in the state', async () => {
    const world = await rotatedState();
    try {
      await expect(confirmState({ ...world, select: { keys: ['live', 'nope', 'other'] }, approve: async () => true })).rejects.toThrow(InputError);
      await expect(confirmState({ ...world, select: { keys: ['nope'] }, approve: async () => true })).rejects.toThrow('"nope" is not a post key of the state');
      expect((await unconfirmedNow(world)).posts.size).toBe(2);

      const confirmed = await confirmState({ ...world, select: { keys: ['live', 'waiting', 'sealed'] }, approve: async () => true });
      expect(confirmed.records.map((record) => [record.kind, record.key])).toEqual([['posts', 'live'], ['pending', 'waiting']]);
      const left = await unconfirmedNow(world);
      expect([...left.posts, ...left.pending]).toEqual(['gone']);
      expect(await confirmState({ ...world, select: { keys: ['sealed'] }, approve: async () => true })).toEqual({ kind: 'nothing', records: [] });
    } finally {
      await world.connection.close();
    }
  });
});
