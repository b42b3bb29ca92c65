import { describe, expect, it } from 'vitest';
import { DEMO_API_KEY } from '../../src/emulator/index.js';
import { runCli } from '../helpers/cli.js';
import { HostileApi } from '../helpers/hostile-api.js';
import { CRASH, hostileWorld } from '../helpers/hostile-world.js';
/**
 * A redirect of an API call to another host is not followed: the API key never leaves for it.
 */

const world = hostileWorld();
describe('attack: the API key and another host', () => {
  it('a redirect of any API call to another host is not followed: that host never receives the key', async () => {
    const dir = await world.appliedProject();
    const elsewhere = await HostileApi.start(world.emulator.baseUrl);
    const redirecting = await HostileApi.start(world.emulator.baseUrl, {
      misbehave: (_req, res, url) => {
        res.writeHead(307, { location: `${elsewhere.origin}${url.pathname}${url.search}` }).end();
        return true;
      },
    });
    try {
      for (const command of [['whoami'], ['plan'], ['apply', '--yes'], ['import', '--dry-run']]) {
        const result = await runCli(command, { cwd: dir, env: { ...world.env(), POSTSYNC_API_URL: redirecting.baseUrl } });
        expect(result.stderr, command.join(' ')).not.toMatch(CRASH);
        expect(result.code, command.join(' ')).toBe(1);
        expect(`${result.stdout}${result.stderr}`).not.toContain(DEMO_API_KEY);
      }
      expect(elsewhere.seen).toEqual([]);
    } finally {
      await redirecting.close();
      await elsewhere.close();
    }
  }, 120_000);
});
