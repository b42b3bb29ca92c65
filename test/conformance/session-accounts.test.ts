import { describe, expect, it } from 'vitest';
import type { Account, Capabilities } from '../../src/api/types.js';
import { ALL_PERMISSIONS } from '../../src/api/types.js';
import { expectError } from './client.js';
import { ACCOUNTS, CROWD_ACCOUNTS, EXPIRING_AT, KEYS, keyWithout } from './fixture.js';
import { useConformance } from './harness.js';

const emulator = useConformance();

describe('GET /auth/session', () => {
  it('reports the project, the key expiry and the effective permissions', async () => {
    const full = await emulator().api().get('/auth/session');
    expect(full.status).toBe(200);
    expect(full.body.data.project.id).toBe('acme');
    expect(full.body.data.key.expiresAt).toBeNull();
    expect([...full.body.data.permissions].sort()).toEqual([...ALL_PERMISSIONS].sort());

    const expiring = await emulator().api(KEYS.expiring).get('/auth/session');
    expect(Date.parse(expiring.body.data.key.expiresAt)).toBe(Date.parse(EXPIRING_AT));
    expect(expiring.body.data.permissions).toEqual(['posts-read']);

    const limited = await emulator().api(keyWithout('posts-delete')).get('/auth/session');
    expect(limited.body.data.permissions).not.toContain('posts-delete');
  });

  it('never returns the credential, in the body or in a header', async () => {
    for (const key of [KEYS.full, KEYS.expiring, KEYS.quickstart, KEYS.other]) {
      const reply = await emulator().api(key).get('/auth/session');
      expect(reply.status).toBe(200);
      expect(JSON.stringify(reply.body)).not.toContain(key);
      for (const [, value] of reply.headers) expect(value).not.toContain(key);
    }
  });
});

describe('GET /accounts', () => {
  it('lists every account of the key’s project, each with an id, page by page', async () => {
    const seen: Account[] = [];
    let after: string | undefined;
    for (let page = 0; page < 10; page += 1) {
      const reply = await emulator().api().get('/accounts', { query: { limit: 10, after } });
      expect(reply.status).toBe(200);
      expect(reply.body.data.items.length).toBeLessThanOrEqual(10);
      seen.push(...reply.body.data.items);
      after = reply.body.data.nextCursor ?? undefined;
      if (!after) break;
    }
    const ids = seen.map((account) => account.id);
    expect(new Set(ids).size).toBe(ids.length);
    const expected = [...Object.values(ACCOUNTS).filter((id) => id !== ACCOUNTS.otherProject), ...CROWD_ACCOUNTS];
    expect([...ids].sort()).toEqual([...expected].sort());
  });

  it('takes limit 1 to 100 like posts (documented choice)', async () => {
    for (const limit of [0, 101]) expectError(await emulator().api().get('/accounts', { query: { limit } }), 400);
    expect((await emulator().api().get('/accounts', { query: { limit: 1 } })).body.data.items).toHaveLength(1);
  });

  it('never shows accounts of another project', async () => {
    const reply = await emulator().api(KEYS.other).get('/accounts');
    expect(reply.body.data.items.map((account: Account) => account.id)).toEqual([ACCOUNTS.otherProject]);
  });
});

describe('GET /accounts/{accountId}/capabilities', () => {
  const capabilitiesOf = async (accountId: string): Promise<Capabilities> => {
    const reply = await emulator().api().get('/accounts/{accountId}/capabilities', { params: { accountId } });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    return reply.body.data as Capabilities;
  };

  it('gives realistic rules that differ for photoC, vidA and shortB accounts', async () => {
    const photo = await capabilitiesOf(ACCOUNTS.photo);
    const video = await capabilitiesOf(ACCOUNTS.video);
    const short = await capabilitiesOf(ACCOUNTS.short);
    expect([photo.account.platform, video.account.platform, short.account.platform]).toEqual(['photoC', 'vidA', 'shortB']);
    for (const [capabilities, id] of [[photo, ACCOUNTS.photo], [video, ACCOUNTS.video], [short, ACCOUNTS.short]] as const) {
      expect(capabilities.account.id).toBe(id);
      expect(capabilities).toMatchObject({ supported: true, available: true });
      expect(capabilities.reason).toBeUndefined();
      expect(capabilities.rules.caption.maxLength).toBeGreaterThan(0);
      expect(capabilities.rules.attachments.max).toBeGreaterThanOrEqual(capabilities.rules.attachments.min);
    }
    expect(photo.rules).not.toEqual(video.rules);
    expect(photo.rules).not.toEqual(short.rules);
    expect(video.rules).not.toEqual(short.rules);
    expect(photo.rules.media.images.contentTypes.length).toBeGreaterThan(0);
    expect(video.rules.media.videos.contentTypes.length).toBeGreaterThan(0);
  });

  it('reports an unavailable account with its reason', async () => {
    const gone = await capabilitiesOf(ACCOUNTS.unavailable);
    expect(gone.available).toBe(false);
    expect(gone.reason).toEqual(expect.any(String));
    expect(gone.reason?.length).toBeGreaterThan(0);
  });

  it('is 404 for an account of another project and 400 for a malformed id', async () => {
    const foreign = await emulator().api().get('/accounts/{accountId}/capabilities', { params: { accountId: ACCOUNTS.otherProject } });
    expectError(foreign, 404);
    const malformed = await emulator().api().get('/accounts/{accountId}/capabilities', { params: { accountId: 'not-a-uuid' } });
    expectError(malformed, 400);
  });
});
