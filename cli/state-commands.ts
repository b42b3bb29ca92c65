import { entry, flag, jsonFlag, lines, type CommandEntry } from './command-table.js';
import type { StateConfirmFlags } from './commands/state.js';
import type { StateHomeFlags } from './commands/state-home.js';

const remote = () => flag('--remote <name>', 'the git remote that holds the state branch').default('origin');

/** The subcommands of `postsync state`, in the order its `--help` lists them. */
export const stateCommands = (): CommandEntry<never, never>[] => [
  entry<Record<string, never>, [string, string, string]>({
    name: 'merge',
    args: [
      ['<base>', "the common ancestor's version (git's %O)"],
      ['<ours>', "this branch's version (git's %A); the merged state is written here"],
      ['<theirs>', "the other branch's version (git's %B)"],
    ],
    description: 'merge two versions of the state file: git\'s merge driver for .postsync/state.json',
    helpAfter: lines(
      '',
      'Keeps every entry either branch added, changed or removed; an entry both changed keeps the later',
      'record and is marked to be re-read from the remote on the next plan. `postsync init` registers it',
      'in .gitattributes; tell git how to run it once per clone:',
      '  $ git config merge.postsync-state.driver "npx postsync state merge %O %A %B"',
    ),
    run: async ({ args: [base, ours, theirs] }) => (await import('./commands/state.js')).runStateMerge(base, ours, theirs),
  }),
  entry<StateConfirmFlags, [string[]]>({
    name: 'confirm',
    args: [['[keys...]', 'post keys whose records to confirm (as `postsync plan` shows them)']],
    description: 'seal state records no apply of this repository wrote (states from before seals, or after an API key rotation), so plans act on them again',
    options: [
      flag('--all', 'every record of this target without a valid seal: posts, pending creates, media and uploads'),
      flag('-y, --yes', 'do not ask for confirmation (required outside a terminal)'),
    ],
    helpAfter: lines(
      '',
      'Every record an apply writes carries a seal made with the API key. A plan never updates, deletes or',
      'resends what a record without a valid seal points at: such a record may have been added or edited',
      'in a pull request to point at a post this calendar does not own. Lists each record with its remote',
      'post (status and text) first; confirm only those you recognise.',
      '',
      'Example:',
      '  $ postsync state confirm 2027-01/launch',
      '  $ postsync state confirm --all --yes    # after rotating POSTSYNC_API_KEY',
    ),
    run: async ({ args: [keys], flags, command }) => (await import('./commands/state.js')).runStateConfirm(keys, flags, command),
  }),
  entry<StateHomeFlags>({
    name: 'pull',
    description: 'bring the state of the calendar\'s state branch (state: { home: branch }) into the working state file',
    options: [remote(), flag('--merge', 'merge the branch\'s records into the working file entry by entry instead of replacing it')],
    helpAfter: lines(
      '',
      'Fetches the state branch alone (no history). Without a branch, or without a file for this calendar on it,',
      'the working file stays as it is. With state home `file` there is nothing to pull: git pull brings the file.',
      '',
      'Example:',
      '  $ postsync state pull && postsync plan',
    ),
    run: async ({ flags, command }) => (await import('./commands/state-home.js')).runStatePull(flags, command),
  }),
  entry<StateHomeFlags>({
    name: 'push',
    description: 'commit the working state file to the calendar\'s state branch and push it (the branch is created when missing)',
    options: [
      remote(),
      flag('--merge', 'when the branch moved since the last pull, merge its records in entry by entry and push the union'),
      flag('--message <text>', 'the commit message').default('postsync: record applied posts'),
    ],
    helpAfter: lines(
      '',
      'Commits this calendar\'s file alone: other calendars\' files on the branch stay as they are. Refuses to',
      'overwrite a branch that moved since the last pull or push from this clone, unless --merge.',
      '',
      'Example:',
      '  $ postsync state pull && postsync state confirm --all --yes && postsync state push',
    ),
    run: async ({ flags, command }) => (await import('./commands/state-home.js')).runStatePush(flags, command),
  }),
  entry<StateHomeFlags>({
    name: 'handoff',
    description: 'write the calendar\'s state as applied to a folder, for the job that records every calendar\'s state at once (the apply workflow)',
    options: [
      flag('--out <folder>', 'the folder the hand-off is written to (an artifact\'s folder)').makeOptionMandatory(),
      flag('--branch <name>', 'with state home `file`: the branch the state is recorded on (default: GITHUB_REF_NAME)'),
      remote(),
    ],
    helpAfter: lines(
      '',
      'Writes one file: where the state lives, the state as applied, and the state as it was read before',
      'the apply (the base of the merge). postsync state record commits every calendar\'s hand-off at once.',
      '',
      'Example:',
      '  $ postsync state handoff --out "$RUNNER_TEMP/postsync-state"',
    ),
    run: async ({ flags, command }) => (await import('./commands/state-home.js')).runStateHandoff(flags, command),
  }),
  entry<StateHomeFlags, [string]>({
    name: 'record',
    args: [['<folder>', 'the folder of the hand-offs: one sub-folder per calendar, as actions/download-artifact lays them out']],
    description: 'record the states that apply jobs handed on (postsync state handoff) in their homes: one commit and one push per branch',
    options: [remote(), flag('--message <text>', 'the commit message').default('postsync: record applied posts')],
    helpAfter: lines(
      '',
      'Run it in a clone of the repository. Each branch (the state branch, or the default branch for state',
      'home `file`) gets one commit that changes only the states handed on, each merged entry by entry into',
      'what the branch holds. A push another writer got in before is fetched, merged and tried again, with',
      'growing waits, for up to five minutes.',
      '',
      'Example:',
      '  $ postsync state record "$RUNNER_TEMP/postsync-states" --message "postsync: record applied posts [skip ci]"',
    ),
    run: async ({ args: [folder], flags }) => (await import('./commands/state-home.js')).runStateRecord(folder, flags),
  }),
  entry<StateHomeFlags>({
    name: 'show',
    description: 'print where the state lives and its records by target, with their seals when the API key can check them',
    options: [remote(), jsonFlag()],
    helpAfter: '\nReads the state branch\'s tip (or the committed file) without touching the working file.\n\nExample:\n  $ postsync state show --json',
    run: async ({ flags, command }) => (await import('./commands/state-home.js')).runStateShow(flags, command),
  }),
  entry<StateHomeFlags>({
    name: 'move-home',
    description: 'move the state to a branch of its own (--to branch) or back to the committed file (--to file), and say so in postsync.yaml',
    options: [
      flag('--to <home>', '`branch` or `file`').makeOptionMandatory(),
      flag('--branch <name>', 'the state branch, with --to branch').default('postsync/state'),
      remote(),
    ],
    helpAfter: lines(
      '',
      '--to branch pushes the working state file to the branch (merged with what it holds), writes',
      '`state: { home: branch }` in postsync.yaml and takes the file out of git\'s index. --to file pulls the',
      'branch\'s state into the file and writes `state:` back as a path. Commit the result in a pull request.',
      '',
      'Example:',
      '  $ postsync state move-home --to branch',
    ),
    run: async ({ flags, command }) => (await import('./commands/state-home.js')).runStateMoveHome(flags, command),
  }),
];
