import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../src/emulator/index.js';
import { runCli } from '../helpers/cli.js';
import { hostileWorld } from '../helpers/hostile-world.js';
import { testdir } from '../helpers/testdir.js';
/**
 * postsync.yaml account names a terminal would obey are quoted as escapes in the configuration error.
 */

const world = hostileWorld();
describe('attack: postsync.yaml names that a terminal would obey', () => {
  it('an alias with CR, ESC and a line that starts a workflow command is quoted as escapes in the configuration error', async () => {
    const dir = await testdir({
      'postsync.yaml': `timezone: UTC\naccounts:\n  "ph\\r\\u001b]0;owned\\u0007\\n::error::forged\\u202e": ${DEMO_ACCOUNTS.photo}\n`,
      'posts/a.md': '---\ntargets: [photo]\n---\nHi\n',
    });
    for (const extra of [{}, { GITHUB_ACTIONS: 'true' }]) {
      const result = await runCli(['validate'], { cwd: dir, env: { ...world.env(), ...extra } });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('is not a valid name in `accounts`');
      expect(result.stderr, JSON.stringify(extra)).not.toMatch(/[\u001b\u0007\r\u202e]/);
      expect(result.stderr, JSON.stringify(extra)).not.toMatch(/^::error::forged/m);
    }
  }, 120_000);
});
