import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { demoFixture } from '../../src/emulator/fixture/demo-fixture.js';
import { initProject } from '../../src/init/init-project.js';
import { runCli, type CliResult } from '../helpers/cli.js';
import { useEmulator } from '../helpers/emulator.js';
import { testdir } from '../helpers/testdir.js';

/** The demo world, with the photo account's handle and unavailability reason written by an attacker. */
function hostileFixture() {
  const fixture = demoFixture();
  const accounts = fixture.projects[0]!.accounts!;
  accounts[0] = { ...accounts[0]!, handle: '::stop-commands::pwned', available: false, unavailableReason: 'gone\x1b]0;owned\x07\n::error::from the remote' };
  return fixture;
}

const emulator = useEmulator({ fixture: hostileFixture() });
const NOW = new Date('2026-11-21T12:00:00Z');

/** Lines the runner would read as a workflow command (`::name ...::`, after leading blanks) or a legacy `##[name]`. */
function commandLines(output: string): string[] {
  return output.split(/\r?\n/).filter((line) => line.trimStart().startsWith('::') || line.includes('##['));
}

/** Our own annotations: a level, properties ending with our title, then the data. */
const OURS = /^::(error|warning|notice) (file=[^,:]*,)?(line=\d+,)?(col=\d+,)?title=postsync [^:,]*::/;

function expectNoInjectedCommands(result: CliResult): void {
  const all = `${result.stdout}\n${result.stderr}`;
  expect(all).not.toContain('\x1b');
  expect(all).not.toContain('\x07');
  for (const line of commandLines(all)) expect(line, 'a line the runner would read as a command we did not write').toMatch(OURS);
}

async function hostileProject(): Promise<string> {
  const dir = await testdir();
  await initProject({ dir, now: NOW, timezone: 'UTC' });
  await writeFile(join(dir, 'posts', 'a\n::error::pwned.md'), '---\ntargets: [photo]\n---\nHello\n');
  await writeFile(join(dir, 'posts', 'x.md'), '---\nid: "evil\\e[2Jkey"\ntargets: [photo]\nmedai: 1\n---\nHi\n');
  await writeFile(join(dir, 'posts', 'h.md'), '---\ntargets: ["nobody\\n::stop-commands::tok"]\n---\nHi\n');
  await mkdir(join(dir, 'posts', '##[error]dir'));
  await writeFile(join(dir, 'posts', '##[error]dir', 'p.md'), '---\nid: "  ::warning::k"\ntargets: [photo]\n---\nHi\n');
  return dir;
}

describe('untrusted text on the terminal under GitHub Actions', () => {
  const cli = (dir: string, ...args: string[]) => runCli(['--api-url', emulator().baseUrl, ...args], { cwd: dir, env: { POSTSYNC_API_KEY: 'demo-key', GITHUB_ACTIONS: 'true', GITHUB_WORKSPACE: dir } });

  it('plan and validate: a file name, a key and a target with control characters start no workflow command and print no raw ESC', async () => {
    const dir = await hostileProject();
    const plan = await cli(dir, 'plan');
    expect(plan.stderr + plan.stdout).toContain('error');
    expectNoInjectedCommands(plan);
    // The file shows where it is, escaped and quoted: one line, nothing hidden.
    expect(plan.stdout).toContain('"posts/a\\n::error::pwned.md"');
    expect(plan.stdout).toContain('evil\\x1b[2Jkey');
    const validate = await cli(dir, 'validate');
    expectNoInjectedCommands(validate);
  });

  it('plan --json stays valid JSON holding the texts as they are, guard or not', async () => {
    const dir = await hostileProject();
    const plan = await cli(dir, 'plan', '--json');
    expectNoInjectedCommands(plan);
    const files = (JSON.parse(plan.stdout) as { changes: { file: string | null }[] }).changes.map((change) => change.file);
    expect(files).toContain('posts/##[error]dir/p.md');
    expect(files).toContain('posts/a\n::error::pwned.md');
  });

  it('accounts and status: a remote handle and a remote reason start no workflow command and print no raw ESC', async () => {
    const dir = await hostileProject();
    const accounts = await cli(dir, 'accounts');
    expect(accounts.stdout).toContain('stop-commands');
    expectNoInjectedCommands(accounts);
    const apply = await cli(dir, 'apply', '--yes');
    expectNoInjectedCommands(apply);
    const status = await cli(dir, 'status', '--problems');
    expectNoInjectedCommands(status);
  });
});
