import { initProject } from '../../src/init/init-project.js';
import { git } from '../helpers/git.js';
import { testdir } from '../helpers/testdir.js';

/**
 * A bare repository standing for GitHub (`remote`) whose main holds one commit: a project that
 * `init` wrote, with its workflows and its copy of the action; and a clone of it to work in (`editor`).
 */
export async function initRepository(options: { now: Date }): Promise<{ remote: string; editor: string }> {
  const remote = await testdir();
  await git(remote, 'init', '-q', '--bare', '--initial-branch=main', '.');
  const editor = await testdir();
  await git(editor, 'clone', '-q', remote, '.');
  await initProject({ dir: editor, now: options.now, timezone: 'UTC' });
  await git(editor, 'add', '.');
  await git(editor, 'commit', '-q', '-m', 'Start the content calendar');
  await git(editor, 'push', '-q', 'origin', 'HEAD:main');
  return { remote, editor };
}
