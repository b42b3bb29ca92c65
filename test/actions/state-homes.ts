import { execFile } from 'node:child_process';
import { appendFile, chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { git, gitEnv } from '../helpers/git.js';

/** The two places a calendar's state can live (`state:` of postsync.yaml). */
export type StateHome = 'file' | 'branch';
export const STATE_HOMES: readonly StateHome[] = ['file', 'branch'];

/** The ref that holds the state of each home on the remote. */
export const homeRef = (home: StateHome) => (home === 'file' ? 'main' : 'postsync/state');

/** The variable that tells the remote's hook a push to main is a merge the test made. */
const MERGE_MARK = 'POSTSYNC_TEST_MERGE';

/**
 * Protects main of the bare repository `remote` as "require a pull request before merging" does:
 * a pre-receive hook refuses every update of refs/heads/main but the test's merges (`mergePush`),
 * with the message GitHub gives. Other branches take pushes as before.
 */
export async function protectMain(remote: string): Promise<void> {
  const hook = join(remote, 'hooks/pre-receive');
  await writeFile(
    hook,
    `#!/bin/sh
while read old new ref; do
  if [ "$ref" = "refs/heads/main" ] && [ "$${MERGE_MARK}" != "1" ]; then
    echo "error: GH006: Protected branch update failed for refs/heads/main." >&2
    echo "error: Changes must be made through a pull request." >&2
    exit 1
  fi
done
`,
  );
  await chmod(hook, 0o755);
}

/** `git push` of a merge: what GitHub's merge button does on a protected main. */
export async function mergePush(cwd: string, ...args: string[]): Promise<void> {
  await promisify(execFile)('git', ['push', ...args], { cwd, env: { ...gitEnv(), [MERGE_MARK]: '1' } });
}

/** Writes `home` into the editor's postsync.yaml (nothing for the default file home) and merges it. */
export async function useHome(editor: string, home: StateHome): Promise<void> {
  if (home === 'file') return;
  await appendFile(join(editor, 'postsync.yaml'), '\nstate:\n  home: branch\n');
  await git(editor, 'commit', '-q', '-am', 'Keep the state on its own branch');
  await mergePush(editor, '-q', 'origin', 'HEAD:main');
}

/** The state file of the calendar at the repository root, as its home on the remote holds it. */
export async function remoteState(remote: string, home: StateHome): Promise<{ targets: Record<string, { posts: Record<string, { postId: string }> }> }> {
  return JSON.parse(await git(remote, 'show', `${homeRef(home)}:.postsync/state.json`));
}
