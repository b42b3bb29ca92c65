import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { CRASH, hostileWorld, type Json } from '../helpers/hostile-world.js';
import { inProcess } from '../helpers/in-process.js';
/**
 * A remote post the service answers with, read by every command that lists posts: fields of the
 * wrong type stop the command with an error naming the endpoint and the field; times that are no
 * time end every command cleanly.
 */

const world = hostileWorld();
/**
 * The first case runs every command that lists posts, each through the CLI; the others, sharing its
 * reader, plan in this process (the error the command would print) and apply through the CLI.
 */
const WRONG_TYPES: { name: string; field: RegExp; rewrite: (post: Json) => void; everyCommand?: true }[] = [
  { name: 'a target that is null', field: /targets\[0\]`/, rewrite: (post) => (post.targets = [null]), everyCommand: true },
  { name: 'a target that is a text', field: /targets\[0\]`/, rewrite: (post) => (post.targets = ['photo']) },
  { name: 'a target account id that is a number', field: /targets\[0\]\.socialAccountId`/, rewrite: (post) => (post.targets[0].socialAccountId = 5) },
  { name: 'a target status that is a number', field: /targets\[0\]\.status`/, rewrite: (post) => (post.targets[0].status = 3) },
  { name: 'a target contentOverride that is a number', field: /targets\[0\]\.contentOverride`/, rewrite: (post) => (post.targets[0].contentOverride = 9) },
  { name: 'a media that is null', field: /media\[0\]`/, rewrite: (post) => (post.media = [null]) },
  { name: 'a media id that is a number', field: /media\[0\]\.id`/, rewrite: (post) => (post.media[0].id = 1) },
  { name: 'an updatedAt that is an object', field: /updatedAt`/, rewrite: (post) => (post.updatedAt = {}) },
  { name: 'a content that is a number', field: /content`/, rewrite: (post) => (post.content = 42) },
  { name: 'a scheduledAt that is a number', field: /scheduledAt`/, rewrite: (post) => (post.scheduledAt = 1_800_000_000) },
];

describe('attack: a remote post whose fields have the wrong type', () => {
  it.each(WRONG_TYPES)('$name: each command stops with an error naming the endpoint and the field, and the state stays readable', async ({ field, rewrite, everyCommand }) => {
    const dir = await world.appliedProject();
    world.rewritePost = rewrite;
    const commands = everyCommand ? [['plan'], ['status'], ['calendar', '--out', 'page'], ['apply', '--yes']] : [['apply', '--yes']];
    if (!everyCommand) {
      const error: unknown = await inProcess(dir, world.hostile.baseUrl).plan().then(() => undefined, (caught: unknown) => caught);
      expect(error).toBeInstanceOf(Error);
      expect(error).not.toBeInstanceOf(TypeError);
      expect(error).not.toBeInstanceOf(RangeError);
      expect((error as Error).message).toMatch(/GET \/posts(\/\{id\})?: field `/);
      expect((error as Error).message).toMatch(field);
    }
    for (const command of commands) {
      const result = await runCli(command, { cwd: dir, env: world.env() });
      expect(result.stderr, command.join(' ')).not.toMatch(CRASH);
      expect(result.code, `${command.join(' ')}\n${result.stderr}`).toBe(1);
      expect(result.stderr, command.join(' ')).toMatch(/GET \/posts(\/\{id\})?: field `/);
      expect(result.stderr, command.join(' ')).toMatch(field);
    }
    world.rewritePost = undefined;
    if (everyCommand) {
      const honest = await runCli(['apply', '--yes'], { cwd: dir, env: world.env() });
      expect(honest.stderr).not.toMatch(CRASH);
      expect(honest.code, honest.stderr).toBe(0);
    } else {
      await world.applyInProcess(dir);
    }
  }, 120_000);
});

describe('attack: remote times that are no time', () => {
  const TIMES = ['tomorrow', '2027-13-45T99:00:00Z', '', '+275760-09-13T00:00:01Z', 'soon\r\n::error::forged\u001b[2J\u202e'];
  it.each(TIMES)('a scheduledAt of %j: every command ends cleanly, the calendar and its feed included', async (time) => {
    const dir = await world.appliedProject();
    world.rewritePost = (post) => (post.scheduledAt = time);
    for (const command of [['plan'], ['status'], ['calendar', '--out', 'page', '--ics', 'page/feed.ics'], ['apply', '--yes'], ['import', '--dry-run']]) {
      const result = await runCli(command, { cwd: dir, env: { ...world.env(), GITHUB_ACTIONS: 'true' } });
      expect(result.stderr, command.join(' ')).not.toMatch(CRASH);
      expect(result.stderr, command.join(' ')).not.toMatch(/Invalid time value|Invalid Date|NaN/);
      expect(result.stdout, command.join(' ')).not.toMatch(/Invalid Date|NaN/);
      expect(`${result.stdout}${result.stderr}`, command.join(' ')).not.toMatch(/[\u001b\r\u202e]|^::error::forged/m);
      expect([0, 1], `${command.join(' ')}\n${result.stderr}`).toContain(result.code);
    }
  }, 120_000);
});
