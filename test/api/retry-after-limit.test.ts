import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { CRASH, hostileWorld } from '../helpers/hostile-world.js';
/**
 * A Retry-After far in the future: the run ends saying the project is rate limited, rather than
 * waiting for it.
 */

const world = hostileWorld();
describe('attack: a Retry-After far in the future', () => {
  it.each(['3000', '99999999999'])('Retry-After: %s on an update: the run ends, saying the project is rate limited, rather than waiting for it', async (seconds) => {
    const dir = await world.appliedProject();
    await writeFile(join(dir, 'posts/second.md'), '---\ntargets: [photo]\nmedia: [media/cover.png]\n---\nSecond\n');
    await world.applyInProcess(dir);
    await writeFile(join(dir, 'posts/second.md'), '---\ntargets: [photo]\nmedia: [media/cover.png]\n---\nSecond, edited\n');
    await writeFile(join(dir, 'posts/hello.md'), '---\nscheduledAt: 2027-03-01 09:00\ntargets: [photo]\nmedia: [media/cover.png]\n---\nHello, edited\n');
    let throttled = false;
    world.misbehave = (req, res, url) => {
      if (req.method !== 'PATCH' || !url.pathname.includes('/posts/') || throttled) return false;
      throttled = true;
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': seconds }).end(JSON.stringify({ error: { code: 'rate_limited', message: 'slow down' } }));
      return true;
    };
    const result = await runCli(['apply', '--yes'], { cwd: dir, env: world.env() });
    const output = `${result.stdout}${result.stderr}`;
    expect(output).not.toMatch(CRASH);
    expect(result.code, output).toBe(1);
    expect(output).toMatch(/rate limited/);
    expect(output).toMatch(/\d failed/);
  }, 150_000);
});
