import { existsSync } from 'node:fs';
import { relative, sep } from 'node:path';
import { writeStateSetting } from '../config/edit-state-setting.js';
import type { Config, StateHome } from '../config/types.js';
import { InputError } from '../errors.js';
import { untrack } from '../state/home-git.js';
import { pullState, pushState, type PullOutcome, type PushOutcome } from './state-home-sync.js';

export type MoveOutcome = { to: 'branch'; pushed: PushOutcome | null; configFile: string; untracked: boolean } | { to: 'file'; pulled: PullOutcome; configFile: string };

/**
 * `postsync state move-home --to branch|file`: one command each way. To a branch: the working
 * state file is pushed to the branch (merged entry by entry with what the branch already holds),
 * postsync.yaml says `home: branch`, and the file leaves git's index on this branch (it is kept on
 * disk). To the file: the branch's state is pulled into the working file and postsync.yaml goes
 * back to the plain path. Either way the change of postsync.yaml is left to commit, so a pull
 * request carries it; the branch itself is never deleted.
 */
export async function moveStateHome(config: Config, options: { to: StateHome; remote: string; message: string }): Promise<MoveOutcome> {
  const file = relative(config.root, config.statePath).split(sep).join('/');
  if (options.to.kind === config.stateHome.kind && (options.to.kind === 'file' || (config.stateHome.kind === 'branch' && config.stateHome.branch === options.to.branch))) {
    throw new InputError(`the state of this calendar already lives ${options.to.kind === 'file' ? 'in the committed file' : `on ${options.to.kind === 'branch' ? options.to.branch : ''}`}: nothing to move`);
  }
  if (options.to.kind === 'branch') {
    const atBranch: Config = { ...config, stateHome: options.to };
    // No state yet (nothing applied): there is nothing to carry over, the first apply creates the branch.
    const pushed = existsSync(config.statePath) ? await pushState(atBranch, { remote: options.remote, merge: true, message: options.message }) : null;
    const configFile = await writeStateSetting(config.root, { file, home: options.to });
    return { to: 'branch', pushed, configFile, untracked: await untrack({ cwd: config.root, remote: options.remote }, config.statePath) };
  }
  const pulled = await pullState(config, { remote: options.remote, merge: true });
  return { to: 'file', pulled, configFile: await writeStateSetting(config.root, { file, home: options.to }) };
}
