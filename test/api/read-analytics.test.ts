import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { CRASH, hostileWorld, type Json } from '../helpers/hostile-world.js';
/**
 * Analytics items of the wrong type: `analytics` ends with an error naming the endpoint and the
 * field, never a crash.
 */

const world = hostileWorld();
describe('attack: analytics of the wrong type', () => {
  const cases: { name: string; rewrite: (items: Json[]) => void }[] = [
    { name: 'an item that is null', rewrite: (items) => (items[0] = null as unknown as Json) },
    { name: 'a post id that is a number', rewrite: (items) => (items[0]!.postId = 5) },
    { name: 'a metric that is a text', rewrite: (items) => (items[0]!.likes = 'many') },
    { name: 'a publishedAt that is a number', rewrite: (items) => (items[0]!.publishedAt = 5) },
    { name: 'an account id that is an object', rewrite: (items) => (items[0]!.socialAccountId = {}) },
  ];
  it.each(cases)('$name: analytics ends with an error naming the endpoint and the field, never a crash', async ({ rewrite }) => {
    const dir = await world.appliedProject();
    await world.emulator.setClock(new Date('2027-03-02T00:00:00Z'));
    const published = await runCli(['analytics', '--json'], { cwd: dir, env: world.env() });
    expect(published.code, published.stderr).toBe(0);
    world.rewriteData = (data, path) => path === '/analytics/posts' && Array.isArray(data.items) && data.items.length > 0 && rewrite(data.items);
    for (const command of [['analytics'], ['analytics', '--json']]) {
      const result = await runCli(command, { cwd: dir, env: world.env() });
      expect(result.stderr, command.join(' ')).not.toMatch(CRASH);
      expect(result.code, `${command.join(' ')}\n${result.stdout}${result.stderr}`).toBe(1);
      expect(result.stderr).toMatch(/GET \/analytics\/posts: field `items\[0\]/);
    }
  }, 120_000);
});
