import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { CRASH, hostileWorld } from '../helpers/hostile-world.js';
/**
 * Answers nested 100,000 deep: a clear error naming the endpoint, never a stack overflow.
 */

const world = hostileWorld();
/** JSON nested `depth` arrays deep, as text (JSON.stringify could not write it). */

const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

describe('attack: an answer nested 100,000 deep', () => {
  const DEEP = nested(100_000);
  const cases: { name: string; rewrite: (text: string, url: URL) => string; endpoint: RegExp }[] = [
    { name: 'in the options of a listed post', rewrite: (text, url) => (url.pathname.endsWith('/posts') ? text.replace(/"options":\{(\}?)/, (_match, empty: string) => `"options":{"deep":${DEEP}${empty === '' ? ',' : '}'}`) : text), endpoint: /GET (\/public\/v1)?\/posts/ },
    { name: 'in a field of the session nobody reads', rewrite: (text, url) => (url.pathname.endsWith('/auth/session') ? text.replace('{"data":{', `{"data":{"deep":${DEEP},`) : text), endpoint: /GET (\/public\/v1)?\/auth\/session/ },
  ];
  it.each(cases)('$name: every command ends with a clear error naming the endpoint, never a stack overflow', async ({ rewrite, endpoint }) => {
    const dir = await world.appliedProject();
    world.rewriteText = rewrite;
    for (const command of [['plan', '--json'], ['status'], ['calendar', '--out', 'page'], ['apply', '--yes']]) {
      const result = await runCli(command, { cwd: dir, env: world.env() });
      expect(result.stderr, command.join(' ')).not.toMatch(CRASH);
      expect(result.stderr, command.join(' ')).not.toMatch(/call stack/i);
      expect(result.code, `${command.join(' ')}\n${result.stderr}`).toBe(1);
      expect(result.stderr, command.join(' ')).toMatch(endpoint);
      expect(result.stderr, command.join(' ')).toMatch(/nest/);
    }
  }, 120_000);

  it('in the message of an error answer: the error is shown without it, never a stack overflow', async () => {
    const dir = await world.appliedProject();
    world.misbehave = (_req, res, url) => {
      if (!url.pathname.endsWith('/posts')) return false;
      res.writeHead(403, { 'content-type': 'application/json' }).end(`{"error":{"code":"forbidden","message":["denied",${DEEP_MESSAGE}]}}`);
      return true;
    };
    const result = await runCli(['plan'], { cwd: dir, env: world.env() });
    expect(result.stderr).not.toMatch(CRASH);
    expect(result.stderr).not.toMatch(/call stack/i);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toContain('denied');
  }, 120_000);
});

const DEEP_MESSAGE = nested(100_000);
