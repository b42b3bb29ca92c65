import { describe, expect, it } from 'vitest';
import { ApiClient, type ClientEvent } from '../../src/api/index.js';
import { ALL_PERMISSIONS } from '../../src/api/types.js';
import { useEmulator } from '../helpers/emulator.js';

const KEY = 'pacing-key';
const emulator = useEmulator({
  fixture: {
    projects: [{ id: 'paced', rateLimit: { limit: 50, windowSeconds: 1 }, keys: [{ token: KEY, permissions: [...ALL_PERMISSIONS] }], accounts: [] }],
  },
});

describe('pacing against the project rate limit', () => {
  it('500 concurrent GETs at 50 requests/second get fewer than 1% 429 answers', async () => {
    const events: ClientEvent[] = [];
    const client = new ApiClient({ baseUrl: emulator().baseUrl, apiKey: KEY, onEvent: (event) => events.push(event) });
    await emulator().clearLog();
    const started = Date.now();
    const posts = await Promise.all(Array.from({ length: 500 }, () => client.listPostsPage({ limit: 1 })));
    const elapsed = Date.now() - started;
    await client.close();
    expect(posts).toHaveLength(500);
    const log = (await emulator().requestLog()).filter((entry) => entry.path.endsWith('/posts'));
    const tooMany = log.filter((entry) => entry.status === 429).length;
    console.log(`429s: ${tooMany}/${log.length}, ${elapsed} ms`);
    expect(log.length).toBeGreaterThanOrEqual(500);
    expect(tooMany / log.length).toBeLessThan(0.01);
  }, 60_000);
});
