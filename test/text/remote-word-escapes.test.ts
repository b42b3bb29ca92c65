import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { CRASH, hostileWorld } from '../helpers/hostile-world.js';
/**
 * The remote's words about posts, the key and the accounts, on the terminal and in the runner's log:
 * printed as escapes by every command.
 */

const world = hostileWorld();
/** The words `evil` makes hostile: a line break, then a workflow command, ESC, a C1 CSI and a bidi override. */
const evil = (name: string) => `${name}\r\n::error::forged\u001b[2J\u009b31m\u202e`;

/** Runs a command outside and inside GitHub Actions: no crash, no raw control, no forged workflow command. */
async function expectEscapedEverywhere(dir: string, command: string[]): Promise<void> {
  for (const extra of [{}, { GITHUB_ACTIONS: 'true' }]) {
    const result = await runCli(command, { cwd: dir, env: { ...world.env(), ...extra } });
    const output = `${result.stdout}${result.stderr}`;
    const label = `${command.join(' ')} ${JSON.stringify(extra)}`;
    expect(output, label).not.toMatch(CRASH);
    expect(output.split('\n').filter((line) => /[\u001b\r\u009b\u202e]/.test(line)), label).toEqual([]);
    expect(output, label).not.toMatch(/^::error::forged/m);
  }
}

/** The commands in the order a case runs them (on one project, each its own test), as `{ name, command }`. */
const inOrder = (commands: string[][]) => commands.map((command) => ({ name: command.join(' '), command }));

describe('attack: the remote\'s words about a post, on the terminal and in the runner\'s log', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await world.appliedProject();
    world.rewritePost = (post) => {
      post.status = evil('scheduled');
      for (const target of post.targets) Object.assign(target, { error: evil('error'), waitReason: evil('wait'), nextAttemptAt: evil('soon'), publishedAt: evil('then'), handle: evil('@h'), platform: evil('photoC'), status: evil('failed'), externalPostId: evil('x') });
    };
  });
  it.each(inOrder([['status'], ['status', '--problems'], ['status', '--json'], ['plan'], ['apply', '--yes'], ['import', '--dry-run']]))('a target error, wait reason, handle, platform, status and external id with line breaks and controls are printed as escapes by $name', async ({ command }) => {
    await expectEscapedEverywhere(dir, command);
  }, 120_000);
});

describe('attack: the remote\'s words about the key and the accounts', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await world.appliedProject();
    world.rewriteData = (data, path) => {
      if (path === '/auth/session') {
        data.permissions = [...(data.permissions as string[]), evil('perm')];
        if (data.key) data.key.expiresAt = evil('2030-01-01T00:00:00Z');
      }
      if (path === '/accounts') for (const account of data.items) Object.assign(account, { handle: evil('@h'), status: evil('active') });
      if (path.endsWith('/capabilities')) {
        data.reason = evil('reason');
        data.rules.notes = [evil('note')];
        data.rules.caption.lengthUnit = evil('characters');
        data.rules.options = { ...data.rules.options, [evil('option')]: { type: evil('string') } };
      }
    };
  });
  it.each(inOrder([['whoami'], ['whoami', '--json'], ['accounts'], ['accounts', '--json'], ['plan'], ['validate'], ['calendar', '--out', 'page']]))('permissions, an expiry, handles, statuses, rule notes, reasons and option names with controls are printed as escapes by $name', async ({ command }) => {
    await expectEscapedEverywhere(dir, command);
  }, 120_000);
});
