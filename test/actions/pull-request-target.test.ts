import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { pullRequestTarget } from '../../src/actions/pull-request-comment.js';

const REPO_ROOT = new URL('../..', import.meta.url).pathname;

describe('the pull request a calendar comment goes to', () => {
  it('without a token, says how to give one with the inputs action.yml has', async () => {
    const target = pullRequestTarget({ GITHUB_REPOSITORY: 'northwind/content' }, null);
    expect(target).toHaveProperty('missing');
    const { missing } = target as { missing: string };
    const inputs = Object.keys((parse(await readFile(`${REPO_ROOT}/action.yml`, 'utf8')) as { inputs: Record<string, unknown> }).inputs);
    // Every input the message names (`name: value` or `name`) is one action.yml declares.
    const named = [...missing.matchAll(/`([a-z-]+)(?::[^`]*)?`/g)].map((match) => match[1]!);
    expect(named.length).toBeGreaterThan(0);
    for (const name of named) expect(inputs, missing).toContain(name);
    expect(missing).toContain('`comment: true`');
  });
});
