import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/emulator/index.js';
import { startTestEmulator } from '../helpers/emulator.js';

const dir = await mkdtemp(join(tmpdir(), 'postsync-fixture-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('fixtures', () => {
  it('loads a YAML fixture file with seed posts, unsupported platforms and disconnected accounts', async () => {
    const file = join(dir, 'fixture.yaml');
    await writeFile(
      file,
      `projects:
  - id: acme
    keys:
      - { token: acme-key, permissions: [accounts-read, posts-read] }
    accounts:
      - { id: 6f1c2d6e-0a55-4c59-9d0f-3b8f5d1a7e01, platform: photoC, handle: "@acme", status: active }
      - { id: 9c9c9c9c-0a55-4c59-9d0f-3b8f5d1a7e01, platform: faxD, handle: "@fax" }
      - { id: 9d9d9d9d-0a55-4c59-9d0f-3b8f5d1a7e01, platform: vidA, handle: "@old", status: disconnected }
    posts:
      - { content: "seeded draft", targets: [{ socialAccountId: 6f1c2d6e-0a55-4c59-9d0f-3b8f5d1a7e01 }] }
`,
    );
    const emulator = await startTestEmulator({ fixture: file });
    try {
      const posts = await emulator.api('GET', '/posts', { key: 'acme-key' });
      expect(posts.body.data.items).toEqual([expect.objectContaining({ content: 'seeded draft', status: 'draft', targets: [expect.objectContaining({ handle: '@acme', status: 'pending' })] })]);
      const fax = await emulator.api('GET', '/accounts/9c9c9c9c-0a55-4c59-9d0f-3b8f5d1a7e01/capabilities', { key: 'acme-key' });
      expect(fax.body.data).toMatchObject({ supported: false, available: false, reason: 'platform faxD is not supported' });
      const old = await emulator.api('GET', '/accounts/9d9d9d9d-0a55-4c59-9d0f-3b8f5d1a7e01/capabilities', { key: 'acme-key' });
      expect(old.body.data).toMatchObject({ account: { status: 'disconnected' }, supported: true, available: false, reason: 'the account is disconnected' });
    } finally {
      await emulator.close();
    }
  });

  it('reports every problem of an invalid fixture at once', async () => {
    const fixture = {
      projects: [
        { id: 'a', keys: [{ token: 't', permissions: ['posts-read', 'fly'] }], accounts: [{ id: 'nope', platform: 'photoC', handle: '@a' }] },
        { id: 'a', keys: [{ token: 't', permissions: [] }] },
      ],
    };
    await expect(startEmulator({ fixture: fixture as never })).rejects.toThrow(/permissions\/1 must be equal to one of the allowed values[\s\S]*accounts\/0\/id must match pattern/);
    const duplicates = { projects: [{ id: 'a', keys: [{ token: 't', permissions: [] }] }, { id: 'a', keys: [{ token: 't', permissions: [] }] }] };
    await expect(startEmulator({ fixture: duplicates })).rejects.toThrow(/duplicate project id a[\s\S]*duplicate token/);
    await expect(startEmulator({ fixture: join(dir, 'missing.yaml') })).rejects.toThrow(/cannot read the fixture/);
  });
});
