import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InvalidConfigError } from '../../src/config/invalid-config-error.js';
import { loadConfig } from '../../src/config/load-config.js';
import { testdir } from '../helpers/testdir.js';

async function diagnostics(yaml: string) {
  const root = await testdir({ 'postsync.yaml': yaml });
  const error = await loadConfig({ cwd: root, env: {} }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(InvalidConfigError);
  return (error as InvalidConfigError).diagnostics;
}

describe('the state home of postsync.yaml', () => {
  it('keeps the committed file on the default branch unless told otherwise, with a path or with `home: file`', async () => {
    for (const yaml of ['', 'state: records/state.json\n', 'state:\n  file: records/state.json\n  home: file\n']) {
      const root = await testdir({ 'postsync.yaml': yaml });
      const config = await loadConfig({ cwd: root, env: {} });
      expect(config.stateHome).toEqual({ kind: 'file' });
      expect(config.statePath).toBe(join(root, yaml === '' ? '.postsync/state.json' : 'records/state.json'));
    }
  });

  it('reads `home: branch` with postsync/state as the default branch, or the branch named', async () => {
    const plain = await testdir({ 'postsync.yaml': 'state:\n  home: branch\n' });
    expect(await loadConfig({ cwd: plain, env: {} })).toMatchObject({ statePath: join(plain, '.postsync/state.json'), stateHome: { kind: 'branch', branch: 'postsync/state' } });
    const named = await testdir({ 'postsync.yaml': 'state:\n  home: branch\n  branch: team/postsync-state\n  file: state/acme.json\n' });
    expect(await loadConfig({ cwd: named, env: {} })).toMatchObject({ statePath: join(named, 'state/acme.json'), stateHome: { kind: 'branch', branch: 'team/postsync-state' } });
  });

  it('refuses a branch git or a workflow could not use, a branch without `home: branch`, and an unknown home, saying where', async () => {
    for (const branch of ['-x', 'a..b', 'with space', 'refs/heads/.hidden', 'x.lock', 'trailing/', 'a;rm']) {
      expect(await diagnostics(`state:\n  home: branch\n  branch: "${branch}"\n`)).toMatchObject([{ code: 'invalid-state-branch', line: 3, found: `\`${branch}\`` }]);
    }
    expect(await diagnostics('state:\n  branch: postsync/state\n')).toMatchObject([{ code: 'state-branch-without-home', line: 2, hint: expect.stringContaining('home: branch') }]);
    const unknown = await diagnostics('state:\n  home: bucket\n');
    expect(unknown).toHaveLength(1);
    expect(unknown[0]!.line).toBe(2);
    expect(JSON.stringify(unknown[0])).toContain('branch');
  });

  it('checks the path of the object form as it checks a plain path, at its own line', async () => {
    expect(await diagnostics('state:\n  home: branch\n  file: ../outside.json\n')).toMatchObject([{ code: 'path-outside-project', line: 3, message: expect.stringContaining('`state.file`') }]);
    expect(await diagnostics('state:\n  file: .git/hooks/state.json\n')).toMatchObject([{ code: 'state-folder-hidden', line: 2, message: expect.stringContaining('`state.file`') }]);
  });
});
