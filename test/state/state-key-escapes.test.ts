import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../src/emulator/index.js';
import { runCli } from '../helpers/cli.js';
import { hostileWorld } from '../helpers/hostile-world.js';
import { testdir } from '../helpers/testdir.js';
/**
 * An invalid state file whose keys a terminal would obey is refused with controls as escapes.
 */

const world = hostileWorld();
describe('attack: a state file whose keys a terminal would obey', () => {
  it('an invalid state with a line break and ESC in its target and post keys is refused with every problem on its own line, controls as escapes', async () => {
    const dir = await testdir({
      'postsync.yaml': `timezone: UTC\naccounts:\n  photo: ${DEMO_ACCOUNTS.photo}\n`,
      'posts/a.md': '---\ntargets: [photo]\n---\nHi\n',
      '.postsync/state.json': JSON.stringify({ version: 1, targets: { 'http://x\n::error::forged\u001b]0;t\u0007': { posts: { 'k\r\nPlan: 0 to create\u001b[2K': { postId: 5 } } } } }),
    });
    for (const extra of [{}, { GITHUB_ACTIONS: 'true' }]) {
      const result = await runCli(['plan'], { cwd: dir, env: { ...world.env(), ...extra } });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('is not a valid postsync state');
      expect(result.stderr, JSON.stringify(extra)).not.toMatch(/[\u001b\u0007\r]/);
      expect(result.stderr, JSON.stringify(extra)).not.toMatch(/^(::error::forged|Plan: 0 to create)/m);
    }
  }, 120_000);
});
