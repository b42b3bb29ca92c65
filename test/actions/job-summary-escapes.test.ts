import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { hostileWorld } from '../helpers/hostile-world.js';
/**
 * The job summary apply writes in GitHub Actions: the remote's words in it are text, never Markdown
 * that renders a link or loads an image.
 */

const world = hostileWorld();
describe('attack: the remote\'s words in the job summary', () => {
  it('a link or an image in the remote\'s error message is shown as text, never rendered as a link or loaded', async () => {
    const dir = await world.appliedProject();
    const phishing = 'Account locked: [verify it here](https://evil.example/login) ![](https://evil.example/pixel.png) [ref]: https://evil.example';
    world.misbehave = (req, res, url) => {
      if (req.method !== 'PATCH' || !url.pathname.includes('/posts/')) return false;
      res.writeHead(422, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 'validation_failed', message: phishing } }));
      return true;
    };
    const summary = join(dir, 'summary.md');
    await writeFile(summary, '');
    const result = await runCli(['apply', '--yes'], { cwd: dir, env: { ...world.env(), GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary } });
    expect(result.code, result.stderr).toBe(1);
    const markdown = await readFile(summary, 'utf8');
    expect(markdown).toContain('verify it here');
    // A link or image opens with an unescaped `[` (or `![`) closed by `](`.
    expect(markdown).not.toMatch(/(?<!\\)\[[^\]]*(?<!\\)\]\(/);
    expect(markdown).not.toMatch(/^\s*(?<!\\)\[ref(?<!\\)\]:/m);
  }, 120_000);
});
