import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { prettyCanonicalJson } from '../../src/state/hash.js';
import { parseState } from '../../src/state/state-file.js';
import type { StateFile } from '../../src/state/types.js';
import { ID, file, post, postsOf } from '../state/merge-fixtures.js';
import { CLI } from '../helpers/cli.js';
import { git } from '../helpers/git.js';
import { testdir } from '../helpers/testdir.js';

// The built CLI as git's merge driver: an end-to-end test (a mutant of src/state lives in the
// sandbox's sources, not in dist/, so this cannot run under `npm run mutate`).

const STATE = '.postsync/state.json';

describe('postsync state merge as git merge driver', () => {
  it('merges two branches that both applied posts, with a real git merge', async () => {
    const repo = await testdir();
    await git(repo, 'init', '--initial-branch=main', '.');
    await git(repo, 'config', 'merge.postsync-state.driver', `"${process.execPath}" "${CLI}" state merge %O %A %B`);
    await writeFile(join(repo, '.gitattributes'), '.postsync/state.json merge=postsync-state\n');
    const base = file({ a: post('p-a', '2027-01-01T00:00:00.000Z'), b: post('p-b', '2027-01-01T00:00:00.000Z') });
    const write = (value: StateFile) => writeFile(join(repo, STATE), prettyCanonicalJson(value));
    await git(repo, 'add', '.gitattributes');
    await mkdir(join(repo, '.postsync'));
    await write(base);
    await git(repo, 'add', STATE);
    await git(repo, 'commit', '-m', 'base');

    await git(repo, 'checkout', '-b', 'feature');
    await write(file({ ...base.targets[ID]!.posts, c: post('p-c', '2027-01-02T00:00:00.000Z'), b: post('p-b', '2027-01-03T00:00:00.000Z') }));
    await git(repo, 'commit', '-am', 'feature applies c and updates b');
    await git(repo, 'checkout', 'main');
    await write(file({ a: post('p-a', '2027-01-01T00:00:00.000Z'), b: post('p-b', '2027-01-02T00:00:00.000Z'), d: post('p-d', '2027-01-02T00:00:00.000Z') }));
    await git(repo, 'commit', '-am', 'main applies d and updates b');

    // Line by line, both additions (and both edits of b) touch neighbouring lines: a textual conflict.
    await git(repo, 'merge', '--no-edit', 'feature');
    const text = await readFile(join(repo, STATE), 'utf8');
    const merged = await parseState(text, STATE);
    expect(text).toBe(prettyCanonicalJson(merged));
    expect(Object.keys(postsOf(merged))).toEqual(['a', 'b', 'c', 'd']);
    expect(postsOf(merged).b).toEqual({ ...post('p-b', '2027-01-03T00:00:00.000Z'), reread: true });
    expect(await git(repo, 'status', '--porcelain')).toBe('');
  });

  it('refuses a version that is not a valid state, leaving the conflict to git', async () => {
    const repo = await testdir();
    await git(repo, 'init', '--initial-branch=main', '.');
    await git(repo, 'config', 'merge.postsync-state.driver', `"${process.execPath}" "${CLI}" state merge %O %A %B`);
    await writeFile(join(repo, '.gitattributes'), 'state.json merge=postsync-state\n');
    await writeFile(join(repo, 'state.json'), prettyCanonicalJson(file({})));
    await git(repo, 'add', '.');
    await git(repo, 'commit', '-m', 'base');
    await git(repo, 'checkout', '-b', 'feature');
    await writeFile(join(repo, 'state.json'), '{ "version": 1, "targets": ');
    await git(repo, 'commit', '-am', 'broken');
    await git(repo, 'checkout', 'main');
    await writeFile(join(repo, 'state.json'), prettyCanonicalJson(file({ a: post('p-a', '2027-01-01T00:00:00.000Z') })));
    await git(repo, 'commit', '-am', 'a');
    const failed = await git(repo, 'merge', '--no-edit', 'feature').then(
      () => null,
      (error: { stdout: string; stderr: string }) => `${error.stdout}${error.stderr}`,
    );
    expect(failed).toContain('CONFLICT (content): Merge conflict in state.json');
    expect(failed).toContain('is not valid JSON');
  });
});
