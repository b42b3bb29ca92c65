import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { CRASH, hostileWorld } from '../helpers/hostile-world.js';
/**
 * What `state confirm` (and --json of plan and status) shows of a record key and a remote text with
 * terminal controls: escapes.
 */

const world = hostileWorld();
describe('attack: what `state confirm` shows the person deciding what to seal', () => {
  it('a record key from a pull request and a remote text with terminal controls are shown as escapes, in the list and in --json of the other commands', async () => {
    const dir = await world.appliedProject();
    const statePath = join(dir, '.postsync/state.json');
    const state = JSON.parse(await readFile(statePath, 'utf8'));
    const target = Object.values(state.targets as Record<string, { posts: Record<string, unknown> }>)[0]!;
    const evilKey = 'hello\r\u001b[2Kinnocent-post\u009b2K\u202e';
    target.posts = { [evilKey]: target.posts.hello };
    await writeFile(statePath, JSON.stringify(state, null, 2));
    world.rewritePost = (post) => (post.content = 'Hello\u001b]52;c;ZXZpbA==\u0007 \u202eredro\u0085\u200b');
    for (const command of [['state', 'confirm', '--all', '--yes'], ['plan', '--json'], ['status', '--json']]) {
      const result = await runCli(command, { cwd: dir, env: world.env() });
      const output = `${result.stdout}${result.stderr}`;
      expect(output, command.join(' ')).not.toMatch(CRASH);
      expect(output, command.join(' ')).not.toMatch(/[\u001b\u0007\r\u009b\u202e\u0085\u200b]/);
    }
  }, 120_000);
});
