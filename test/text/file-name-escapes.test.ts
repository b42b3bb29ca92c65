import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../src/emulator/index.js';
import { runCli } from '../helpers/cli.js';
import { CRASH, hostileWorld } from '../helpers/hostile-world.js';
import { testdir } from '../helpers/testdir.js';
/**
 * File names and front-matter values that a terminal or the Actions runner would obey are printed as
 * escapes by every command, and in the job summary.
 */

const world = hostileWorld();
describe('attack: file names and file text that a terminal or the Actions runner would obey', () => {
  /** What must never reach a log raw: escape, BEL, CR, a C1 CSI, a bidi override. */
  const CONTROLS = /[\u001b\u0007\r\u009b\u202e]/;
  /** A workflow command of the attacker's: a line that starts with one whose message is theirs. */
  const FORGED = /^::[\w-]+( [^:\n]*)?::forged/m;
  const png = () => readFile(new URL('../../examples/media/cover.png', import.meta.url));

  it('a post file name with a line break, ESC and bidi marks, and front-matter values with them, are printed as escapes by every command', async () => {
    await world.emulator.reset();
    world.rewritePost = undefined;
    world.rewriteData = undefined;
    world.rewriteText = undefined;
    const evilName = 'posts/a\n::error::forged \u001b]0;owned\u0007\u202eevil.md';
    const dir = await testdir({
      'postsync.yaml': `timezone: UTC\naccounts:\n  photo: ${DEMO_ACCOUNTS.photo}\n`,
      'media/cover.png': await png(),
      [evilName]: '---\nscheduledAt: 2027-03-01 09:00\ntargets: [photo]\nmedia: [media/cover.png]\n---\nHello\n',
      'posts/bad.md': '---\nscheduledAt: "2027-03-01 09:00\\n::error::forged\\u001b[31m"\ntargets: ["photo\\n::warning::forged\\u001b]8;;https://evil.example\\u0007"]\nmedia: ["media/x\\n::notice::forged\\u202e.png"]\n"\\n::error::forged\\u001b": 1\n---\nHi\n',
    });
    const summary = join(dir, 'summary.md');
    await writeFile(summary, '');
    const actions = { ...world.env(), GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary, GITHUB_WORKSPACE: dir };
    for (const command of [['validate'], ['plan'], ['plan', '--json'], ['status'], ['calendar', '--out', 'page'], ['apply', '--yes'], ['state', 'show']]) {
      const result = await runCli(command, { cwd: dir, env: actions });
      const output = `${result.stdout}${result.stderr}`;
      expect(output, command.join(' ')).not.toMatch(CRASH);
      expect(output, command.join(' ')).not.toMatch(CONTROLS);
      expect(output, command.join(' ')).not.toMatch(FORGED);
    }
    const markdown = await readFile(summary, 'utf8');
    expect(markdown).not.toMatch(CONTROLS);
    expect(markdown).not.toMatch(/^::/m);
  }, 120_000);
});
