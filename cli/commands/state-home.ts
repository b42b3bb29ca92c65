import { relative, resolve } from 'node:path';
import type { Command } from 'commander';
import { annotation, appendStepOutputs, gitHubActionsEnvironment } from '../../src/actions/index.js';
import { DEFAULT_STATE_BRANCH, isStateBranchName } from '../../src/config/state-section.js';
import type { Config } from '../../src/config/types.js';
import { InputError, PostsyncError } from '../../src/errors.js';
import { moveStateHome } from '../../src/pipeline/move-state-home.js';
import { showState } from '../../src/pipeline/show-state.js';
import { handOffState, readHandoffs } from '../../src/pipeline/state-handoff.js';
import { pullState, pushState } from '../../src/pipeline/state-home-sync.js';
import { recordStates } from '../../src/pipeline/state-record.js';
import type { StateMergeNote } from '../../src/state/merge.js';
import { term, terminalJson, terminalPath } from '../../src/text/terminal.js';
import { err, out } from '../output.js';
import { relativePosix } from '../../src/text/paths.js';
import { connect } from '../../src/pipeline/connect.js';
import { globalOptions, isCI, loadProjectConfig } from '../context.js';
import { writeWorkflowCommand } from '../workflow-output.js';
import { renderStateShown } from '../views/state-home.js';

export interface StateHomeFlags {
  remote?: string;
  out?: string;
  merge?: boolean;
  message?: string;
  json?: boolean;
  to?: string;
  branch?: string;
}

const DEFAULT_MESSAGE = 'postsync: record applied posts';

function writeNotes(notes: readonly StateMergeNote[]): void {
  for (const note of notes) err.write(term`postsync: ${`${note.section} ${note.key} (${note.targetId}): ${note.message}`}\n`);
}

/** In GitHub Actions: where this calendar's state lives, for the steps after (the state commit). */
async function writeHomeOutputs(config: Config): Promise<void> {
  const actions = gitHubActionsEnvironment(process.env, { fallbackWorkspace: config.root });
  const home = config.stateHome;
  await appendStepOutputs(actions, { home: home.kind, branch: home.kind === 'branch' ? home.branch : '', file: relativePosix(config.root, config.statePath) });
}

/** `postsync state pull [--merge]`: the state of the branch home → the working state file. */
export async function runStatePull(flags: StateHomeFlags, command: Command): Promise<number> {
  const config = await loadProjectConfig(globalOptions(command));
  await writeHomeOutputs(config);
  const file = terminalPath(relative(process.cwd(), config.statePath) || config.statePath);
  if (config.stateHome.kind === 'file') {
    out.write(term`The state of this calendar is the committed file ${file} (state home \`file\`): git pull brings it.\n`);
    return 0;
  }
  const outcome = await pullState(config, { remote: flags.remote ?? 'origin', merge: flags.merge === true });
  const branch = outcome.home.branch;
  if (outcome.kind === 'no-branch') out.write(term`${flags.remote ?? 'origin'} has no branch ${branch} yet: ${file} stays as it is. The first apply (or postsync state push) creates it.\n`);
  if (outcome.kind === 'no-file') out.write(term`${branch} holds no ${terminalPath(outcome.home.path)} yet: ${file} stays as it is.\n`);
  if (outcome.kind === 'pulled') {
    writeNotes(outcome.notes);
    out.write(term`${flags.merge ? 'Merged' : 'Pulled'} the state of ${branch} (${outcome.commit.slice(0, 12)}) into ${file}.\n`);
  }
  return 0;
}

/** `postsync state push [--merge] [--message TEXT]`: the working state file → the branch home. */
export async function runStatePush(flags: StateHomeFlags, command: Command): Promise<number> {
  const config = await loadProjectConfig(globalOptions(command));
  const outcome = await pushState(config, { remote: flags.remote ?? 'origin', merge: flags.merge === true, message: flags.message ?? DEFAULT_MESSAGE });
  writeNotes(outcome.notes);
  const branch = outcome.home.branch;
  if (outcome.kind === 'unchanged') out.write(term`The state on ${branch} is already this one: nothing to push.\n`);
  else out.write(term`Pushed the state file to ${branch} (${outcome.created ? 'a new branch, ' : ''}commit ${outcome.commit.slice(0, 12)}).\n`);
  return 0;
}

/** `postsync state handoff --out DIR [--branch NAME]`: the apply job's state → a hand-off for the job that records every calendar's state. */
export async function runStateHandoff(flags: StateHomeFlags, command: Command): Promise<number> {
  if (flags.out === undefined) throw new InputError('--out names the folder the hand-off is written to', { hint: 'Example: postsync state handoff --out "$RUNNER_TEMP/postsync-state"' });
  const config = await loadProjectConfig(globalOptions(command));
  // The file home records its state on the branch this checkout applied (GitHub Actions: the run's branch).
  const branch = flags.branch ?? process.env.GITHUB_REF_NAME ?? 'main';
  const handoff = await handOffState(config, { out: resolve(flags.out), remote: flags.remote ?? 'origin', branch });
  if (handoff === null) out.write(term`No state file: nothing to hand on.\n`);
  else out.write(term`Handed on the state of ${handoff.calendar} (${terminalPath(handoff.path)}, to be recorded on ${handoff.branch}).\n`);
  return 0;
}

/** `postsync state record DIR [--message TEXT]`: every hand-off in DIR → one commit and one push per branch. */
export async function runStateRecord(folder: string, flags: StateHomeFlags): Promise<number> {
  const handoffs = await readHandoffs(resolve(folder));
  if (handoffs.length === 0) {
    out.write(term`No state hand-offs in ${terminalPath(folder)}: nothing to record.\n`);
    return 0;
  }
  const records = await recordStates(handoffs, { repository: { cwd: process.cwd(), remote: flags.remote ?? 'origin' }, message: flags.message ?? DEFAULT_MESSAGE });
  let failed = false;
  for (const record of records) {
    const count = `${record.calendars.length} calendar${record.calendars.length === 1 ? '' : 's'}`;
    if (record.kind === 'pushed') {
      writeNotes(record.notes);
      out.write(term`Recorded the states of ${count} on ${record.branch} in one commit (${record.created ? 'a new branch, ' : ''}commit ${record.commit.slice(0, 12)}).\n`);
    } else if (record.kind === 'unchanged') {
      out.write(term`The states of ${count} on ${record.branch} are already these: nothing to push.\n`);
    } else {
      failed = true;
      const hint = record.error instanceof PostsyncError ? record.error.hint : undefined;
      err.write(term`Error: the states of ${count} (${record.calendars.join(', ')}) are not recorded on ${record.branch}: ${record.error.message}\n${hint ? term`  ${hint}\n` : ''}`);
      if (process.env.GITHUB_ACTIONS === 'true') writeWorkflowCommand(annotation('error', `${record.error.message}${hint ? `. ${hint}` : ''}`, { title: 'postsync' }));
    }
  }
  return failed ? 1 : 0;
}

/** `postsync state show [--json]`: the state of the home, its records by target, and their seals when a key can check them. */
export async function runStateShow(flags: StateHomeFlags, command: Command): Promise<number> {
  const options = globalOptions(command);
  const config = await loadProjectConfig(options);
  // The seals are checked with the API key when the target can be reached; the state shows without.
  // Without an API URL there is no target to check them for (the embedded API is not started for it).
  const connection =
    config.api.url === null && !config.api.local
      ? new Error('no API URL (POSTSYNC_API_URL or --api-url) names the target whose key seals them')
      : await connect(config, { ci: isCI(), onClientEvent: () => {} }).catch((error: Error) => error);
  try {
    const shown = await showState(config, { remote: flags.remote ?? 'origin', ...(connection instanceof Error ? {} : { seal: connection.seal }) });
    const sealNote = connection instanceof Error ? `seals not checked: ${connection.message}` : null;
    if (flags.json) out.write(terminalJson({ formatVersion: 1, command: 'state show', ...shown, sealsChecked: sealNote === null }));
    else out.write(renderStateShown(shown, { cwd: process.cwd(), sealNote }));
    return 0;
  } finally {
    if (!(connection instanceof Error)) await connection.close();
  }
}

/** `postsync state move-home --to branch|file [--branch NAME]`: moves the state and rewrites `state:` of postsync.yaml. */
export async function runStateMoveHome(flags: StateHomeFlags, command: Command): Promise<number> {
  if (flags.to !== 'branch' && flags.to !== 'file') throw new InputError(`--to takes \`branch\` or \`file\`, not ${JSON.stringify(flags.to ?? '')}`, { hint: 'Example: postsync state move-home --to branch' });
  const branch = flags.branch ?? DEFAULT_STATE_BRANCH;
  if (flags.to === 'branch' && !isStateBranchName(branch)) throw new InputError(`--branch ${JSON.stringify(branch)} is not a branch name postsync can use`, { hint: 'Use letters, digits and ._/- such as postsync/state.' });
  const config = await loadProjectConfig(globalOptions(command));
  const remote = flags.remote ?? 'origin';
  const outcome = await moveStateHome(config, { to: flags.to === 'branch' ? { kind: 'branch', branch } : { kind: 'file' }, remote, message: flags.message ?? 'postsync: move the state to its own branch' });
  const file = terminalPath(relative(config.root, config.statePath));
  if (outcome.to === 'branch') {
    writeNotes(outcome.pushed?.notes ?? []);
    const where = outcome.pushed === null ? 'there is no state yet: the first apply creates it there' : `commit ${outcome.pushed.commit.slice(0, 12)}`;
    out.write(
      term`The state now lives on ${branch} of ${remote} (${where}); ${outcome.configFile} says \`home: branch\`${outcome.untracked ? term`, and ${file} left git's index (it stays on disk)` : ''}.\nNext: commit ${outcome.configFile}${outcome.untracked ? term` and the removal of ${file}` : ''} in a pull request. Once it is merged, plan and apply read the state from ${branch}.\n`,
    );
  } else {
    if (outcome.pulled.kind === 'pulled') writeNotes(outcome.pulled.notes);
    out.write(
      term`The state of ${outcome.pulled.home.branch} is in ${file}, and ${outcome.configFile} no longer names a branch.\nNext: commit ${file} and ${outcome.configFile} in a pull request. The branch ${outcome.pulled.home.branch} is left as it was: delete it once that is merged (git push ${remote} --delete ${outcome.pulled.home.branch}).\n`,
    );
  }
  return 0;
}
