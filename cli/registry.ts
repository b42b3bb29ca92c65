import { Option, type Command } from 'commander';

/** Collects a repeatable flag (`--target a --target b`). */
function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

function positiveInteger(value: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1) throw new Error(`expected a whole number of 1 or more, got "${value}"`);
  return parsed;
}

function port(value: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0 || parsed > 65535) throw new Error(`expected a port number from 0 to 65535, got "${value}"`);
  return parsed;
}

/** Runs a command module's exit code through process.exitCode (cli/ alone owns exit codes). */
async function exitWith(code: Promise<number>): Promise<void> {
  process.exitCode = await code;
}

/**
 * Declares every command with its options. Each action imports its module only when that command
 * runs, so `postsync --version` and `--help` load nothing but commander.
 */
export function registerCommands(program: Command): void {
  program
    .option('-C, --dir <path>', 'project folder (holding postsync.yaml); default: the current folder')
    .option('--api-url <url>', 'Public Posting API base URL (overrides POSTSYNC_API_URL and postsync.yaml)')
    .option('--local', 'use the embedded local API even under CI')
    .option('--no-color', 'plain output without colours (NO_COLOR is honoured too)')
    .option('--no-cache', 'parse every post file and hash every media file afresh, ignoring and not writing .postsync/cache');

  program
    .command('plan')
    .description('show what apply would change on the remote, without changing anything')
    .option('--out <file>', 'save the plan as JSON, to apply exactly it later with `postsync apply <file>`')
    .option('--prune', 'plan deletes of owned posts whose files were removed (postsync.yaml can turn this on: `prune: true`)')
    .option('--no-prune', 'plan no deletes of removed files\' posts even with `prune: true` in postsync.yaml')
    .option('--refresh-all', 'list every remote post, history included, instead of only drafts, scheduled posts and owned posts not known to be published')
    .option('--target <key>', 'limit the plan to a post key (repeatable)', collect)
    .option('--adopt <key=postId>', 'take that remote post as the post of a new file the plan holds (it names the candidates); repeatable', collect)
    .option('--recreate <key>', 'create anew the post of a key the plan holds: deleted on the remote, or a new file a remote post may be; repeatable', collect)
    .option('--recreate-all', 'create anew every post the plan holds as deleted on the remote, or as maybe a remote post')
    .option('--json', 'print one JSON document and nothing else')
    .option('--markdown', 'print the plan as Markdown (for pull requests)')
    .option('--verbose', 'also list unchanged posts')
    .option('--full-text', 'show a changed or new text whole, its changes marked, instead of the changed words with a few words around them')
    .option('--detailed-exitcode', 'exit 2 when there are changes, 0 when there are none')
    .option('--all', 'plan every calendar: each folder below this one that holds a postsync.yaml (exit 1 if any failed, else 2 with --detailed-exitcode if any has changes)')
    .action(async (flags, command: Command) => {
      const { runPlan } = await import('./commands/plan.js');
      if (!flags.all) return exitWith(runPlan(flags, command));
      const { runInEveryCalendar } = await import('./all-calendars.js');
      return exitWith(runInEveryCalendar(command, (scoped) => runPlan(flags, scoped), { refuse: { '--out': flags.out, '--json': flags.json, '--target': flags.target } }));
    });

  program
    .command('validate')
    .description('check every post file, and each post against the rules of its accounts; changes nothing')
    .option('--json', 'print one JSON document and nothing else')
    .action(async (flags, command: Command) => exitWith((await import('./commands/validate.js')).runValidate(flags, command)));

  program
    .command('apply')
    .argument('[planfile]', 'a plan saved by `postsync plan --out`; applied exactly, refused when stale (exit 3)')
    .description('make the remote match the files: upload media, create, update, move and (with --prune) delete posts')
    .option('-y, --yes', 'do not ask for confirmation (required outside a terminal)')
    .option('--prune', 'delete owned posts whose files were removed (postsync.yaml can turn this on: `prune: true`)')
    .option('--no-prune', 'delete no removed file\'s post even with `prune: true` in postsync.yaml (its scheduled post goes back to draft)')
    .option('--refresh-all', 'plan against every remote post, history included, instead of only drafts, scheduled posts and owned posts not known to be published')
    .option('--target <key>', 'limit apply to a post key (repeatable)', collect)
    .option('--adopt <key=postId>', 'take that remote post as the post of a new file the plan holds (it names the candidates); repeatable', collect)
    .option('--recreate <key>', 'create anew the post of a key the plan holds: deleted on the remote, or a new file a remote post may be; repeatable', collect)
    .option('--recreate-all', 'create anew every post the plan holds as deleted on the remote, or as maybe a remote post')
    .option('--strict', 'all or nothing: apply nothing while any file has an error (by default the posts of invalid files are blocked and the rest is applied)')
    .option('--json', 'print one JSON document and nothing else')
    .addOption(new Option('--concurrency <n>', 'post writes in flight').argParser(positiveInteger).default(4))
    .option('--all', 'apply every calendar: each folder below this one that holds a postsync.yaml, each with its own target, state and lock (exit 1 if any failed)')
    .action(async (planFile: string | undefined, flags, command: Command) => {
      const { runApply } = await import('./commands/apply.js');
      if (!flags.all) return exitWith(runApply(planFile, flags, command));
      const { runInEveryCalendar } = await import('./all-calendars.js');
      return exitWith(runInEveryCalendar(command, (scoped) => runApply(undefined, flags, scoped), { refuse: { 'a plan file': planFile, '--json': flags.json, '--target': flags.target } }));
    });

  program
    .command('init')
    .description('start a project in --dir (default: here): postsync.yaml, a first post, an image, GitHub workflows and the action they run, .gitignore entries')
    .option('--update-action', 'only replace .github/actions/postsync/ (the action the workflows run) with this postsync version\'s; writes nothing else')
    .option('--default-branch <name>', 'the branch the apply workflow applies (default: the repository\'s default branch as git knows it: origin/HEAD, else the branch checked out, else main)')
    .option('--check-action', 'write nothing; check that .github/actions/postsync/ is exactly this postsync version\'s action, byte for byte (exit 1, naming each file that differs, when not)')
    .option('--example', 'write the example calendar (a coffee roaster\'s January campaign: 26 posts with their media) instead of a first post')
    .option('--check', 'write nothing; check that the apply workflow applies the repository\'s default branch (exit 1 when not)')
    .addHelpText('after', '\nNever overwrites a file: when one exists, init lists it and writes nothing (exit 1).\nThe workflows run the copy of the postsync action in .github/actions/postsync/, never code fetched when\nthey run; --update-action moves them to the postsync version you run it with.\n\nExample:\n  $ postsync init --dir my-calendar && cd my-calendar && postsync plan\n  $ postsync init --example --dir example && postsync -C example --local apply --yes')
    .action(async (flags: { updateAction?: boolean; check?: boolean; checkAction?: boolean; example?: boolean; defaultBranch?: string }, command: Command) =>
      exitWith((await import('./commands/init.js')).runInit(command, { updateAction: flags.updateAction === true, check: flags.check === true, checkAction: flags.checkAction === true, example: flags.example === true, ...(flags.defaultBranch === undefined ? {} : { defaultBranch: flags.defaultBranch }) })),
    );

  program
    .command('serve')
    .description('run the local Public Posting API (the emulator postsync targets by default); prints its base URL, then the control token that a changing /_emulator/ request sends as X-Postsync-Token')
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .option('--port <port>', 'port to listen on (0: any free port)', '0')
    .option('--fixture <file>', 'projects, keys and accounts (YAML or JSON); default: the demo fixture')
    .option('--data <dir>', 'persist everything in this directory (journal + objects); default: in memory')
    .option('--chaos <spec>', 'seeded fault injection: rate=0.2,seed=42[,kinds=503+500+429+reset+reset-after+slow]')
    .option('--idempotency-ttl <seconds>', 'seconds of emulator time a create\'s Idempotency-Key is remembered (0: forget at once)', '86400')
    .action(async (flags) => (await import('./commands/serve.js')).runServe(flags));

  program
    .command('watch')
    .description('watch the files: after every save, show the problems and how the plan changed; applies nothing unless --apply-drafts')
    .addOption(new Option('--refresh <seconds>', 'seconds between two reads of the remote posts and account rules (r re-reads at once)').argParser(positiveInteger).default(60))
    .option('--apply-drafts', 'apply changes that only touch drafts at once (never scheduling, unscheduling, deletes or moves)')
    .option('--calendar', 'also serve the calendar page on 127.0.0.1, updated after every save without a reload, where posts can be moved and edited (each edit is written to its post file; open the printed address: it holds the token of this watch)')
    .addOption(new Option('--port <n>', 'port of the calendar page (default: any free port)').argParser(port))
    .action(async (flags, command: Command) => exitWith((await import('./commands/watch.js')).runWatch(flags, command)));

  program
    .command('calendar')
    .description('write the content calendar as a web page: month and week views, a preview per account, the plan overlaid')
    .option('--out <dir>', 'folder for index.html and its thumbnails (default: .postsync/calendar)')
    .option('--from <date>', 'only posts at or after this date/time (a date means midnight in the project time zone)')
    .option('--to <date>', 'only posts before this date/time (a date includes that whole day)')
    .option('--open', 'open the page in the default browser')
    .option('--ics <file>', 'also write the scheduled posts as an iCalendar feed (RFC 5545) to this file')
    .addHelpText('after', '\nThe page is one self-contained file (plus copied images): open it from disk or share it as a CI artifact.\nUnscheduled drafts sit in a tray; each card opens the post\'s file, plan change and per-account preview.\nWhen the API cannot be reached, statuses come from the state file and the plan is left out.\n\nExample:\n  $ postsync calendar --open\n  $ postsync calendar --from 2027-01-01 --to 2027-01-31 --out january --ics january/calendar.ics')
    .action(async (flags, command: Command) => exitWith((await import('./commands/calendar.js')).runCalendar(flags, command)));

  program
    .command('status')
    .description('show where each managed post stands on the remote, by file: status, schedule, per-account results and errors')
    .option('--json', 'print one JSON document and nothing else')
    .option('--problems', 'only the posts that need a person: drifted (changed or deleted on the remote), failed or partly published, and blocked (an account unavailable)')
    .option('--exit-code', 'with --problems: exit 1 when a post failed to publish, was partly published or is blocked (drifted posts are listed, not counted); in GitHub Actions the job summary lists them')
    .option('--refresh-all', 'read every remote post, history included, instead of only drafts, scheduled posts and owned posts not known to be published')
    .addHelpText('after', '\nExample:\n  $ postsync status\n  $ postsync status --problems\n  $ postsync status --json | jq \'.posts[] | select(.status == "failed")\'')
    .action(async (flags, command: Command) => exitWith((await import('./commands/status.js')).runStatus(flags, command)));

  program
    .command('import')
    .description('turn remote posts that postsync does not manage yet into post files, and adopt them in the state')
    .option('--dry-run', 'show the files that would be written, and write nothing')
    .option('--status <status>', 'only posts with this status (e.g. draft, scheduled, published)')
    .option('--all', 'also posts that can no longer be edited (published, failed...); default: draft and scheduled only')
    .option('--json', 'print one JSON document and nothing else')
    .addHelpText('after', '\nFiles go to <content>/imported/<yyyy-mm>/ (drafts: imported/drafts/);\nan existing file is never overwritten. Media not uploaded from this project are\ndownloaded from the service into media/imported/ (--dry-run only lists them). Posts\nwhose file could not reproduce them exactly, or whose media cannot be downloaded,\nare skipped, each with the reason.\n\nExample:\n  $ postsync import --dry-run\n  $ postsync import && postsync plan    # the plan shows the imported posts unchanged')
    .action(async (flags, command: Command) => exitWith((await import('./commands/import.js')).runImport(flags, command)));

  program
    .command('calendars')
    .description('list the calendars below this folder (each folder with a postsync.yaml) and the names of their secrets')
    .option('--changed <file>', "only the calendars that contain one of the paths listed in this file: one per line, git's \"quoted\" form too, or NUL-separated as git diff -z writes them (- reads stdin)")
    .option('--json', 'print one JSON document and nothing else')
    .addHelpText('after', '\nFolders whose secret names would be the same (acme-eu, acme_eu) are refused: rename one.\nIn GitHub Actions the list is also the step output `calendars`, a JSON array for a job matrix.\n\nExample:\n  $ git diff --name-only -z HEAD~1 HEAD | postsync calendars --changed -')
    .action(async (flags, command: Command) => exitWith((await import('./commands/calendars.js')).runCalendars(flags, command)));

  program
    .command('health-issue')
    .description('open, update or close one GitHub issue for this calendar from what plan and status --problems found (the health check workflow runs it)')
    .requiredOption('--plan <file>', 'what `postsync plan --detailed-exitcode --json` printed')
    .requiredOption('--plan-exit <code>', 'the exit code of that plan (2, changes, is not a failure)')
    .requiredOption('--status <file>', 'what `postsync status --problems --json` printed')
    .requiredOption('--status-exit <code>', 'the exit code of that status')
    .option('--log <file>', 'what the two commands wrote to stderr, quoted when one could not run (repeatable)', collect)
    .option('--print', 'print the issue instead of writing it (no GITHUB_TOKEN needed)')
    .addHelpText('after', '\nReads GITHUB_TOKEN, GITHUB_REPOSITORY, GITHUB_API_URL, GITHUB_SERVER_URL, GITHUB_SHA and GITHUB_RUN_ID,\nas a GitHub Actions runner sets them; the issue carries the label postsync-health.')
    .action(async (flags, command: Command) => exitWith((await import('./commands/health-issue.js')).runHealthIssue(flags, command)));

  const state = program.command('state').description('work on the state file (.postsync/state.json) itself, and on its home (the default branch, or a state branch)');
  state
    .command('merge')
    .argument('<base>', "the common ancestor's version (git's %O)")
    .argument('<ours>', "this branch's version (git's %A); the merged state is written here")
    .argument('<theirs>', "the other branch's version (git's %B)")
    .description('merge two versions of the state file: git\'s merge driver for .postsync/state.json')
    .addHelpText('after', [
      '',
      'Keeps every entry either branch added, changed or removed; an entry both changed keeps the later',
      'record and is marked to be re-read from the remote on the next plan. `postsync init` registers it',
      'in .gitattributes; tell git how to run it once per clone:',
      '  $ git config merge.postsync-state.driver "npx postsync state merge %O %A %B"',
    ].join('\n'))
    .action(async (base: string, ours: string, theirs: string) => exitWith((await import('./commands/state.js')).runStateMerge(base, ours, theirs)));
  state
    .command('confirm')
    .argument('[keys...]', 'post keys whose records to confirm (as `postsync plan` shows them)')
    .description('seal state records no apply of this repository wrote (states from before seals, or after an API key rotation), so plans act on them again')
    .option('--all', 'every record of this target without a valid seal: posts, pending creates, media and uploads')
    .option('-y, --yes', 'do not ask for confirmation (required outside a terminal)')
    .addHelpText('after', [
      '',
      'Every record an apply writes carries a seal made with the API key. A plan never updates, deletes or',
      'resends what a record without a valid seal points at: such a record may have been added or edited',
      'in a pull request to point at a post this calendar does not own. Lists each record with its remote',
      'post (status and text) first; confirm only those you recognise.',
      '',
      'Example:',
      '  $ postsync state confirm 2027-01/launch',
      '  $ postsync state confirm --all --yes    # after rotating POSTSYNC_API_KEY',
    ].join('\n'))
    .action(async (keys: string[], flags, command: Command) => exitWith((await import('./commands/state.js')).runStateConfirm(keys, flags, command)));
  const remoteOption = ['--remote <name>', 'the git remote that holds the state branch', 'origin'] as const;
  state
    .command('pull')
    .description('bring the state of the calendar\'s state branch (state: { home: branch }) into the working state file')
    .option(...remoteOption)
    .option('--merge', 'merge the branch\'s records into the working file entry by entry instead of replacing it')
    .addHelpText('after', [
      '',
      'Fetches the state branch alone (no history). Without a branch, or without a file for this calendar on it,',
      'the working file stays as it is. With state home `file` there is nothing to pull: git pull brings the file.',
      '',
      'Example:',
      '  $ postsync state pull && postsync plan',
    ].join('\n'))
    .action(async (flags, command: Command) => exitWith((await import('./commands/state-home.js')).runStatePull(flags, command)));
  state
    .command('push')
    .description('commit the working state file to the calendar\'s state branch and push it (the branch is created when missing)')
    .option(...remoteOption)
    .option('--merge', 'when the branch moved since the last pull, merge its records in entry by entry and push the union')
    .option('--message <text>', 'the commit message', 'postsync: record applied posts')
    .addHelpText('after', [
      '',
      'Commits this calendar\'s file alone: other calendars\' files on the branch stay as they are. Refuses to',
      'overwrite a branch that moved since the last pull or push from this clone, unless --merge.',
      '',
      'Example:',
      '  $ postsync state pull && postsync state confirm --all --yes && postsync state push',
    ].join('\n'))
    .action(async (flags, command: Command) => exitWith((await import('./commands/state-home.js')).runStatePush(flags, command)));
  state
    .command('handoff')
    .description('write the calendar\'s state as applied to a folder, for the job that records every calendar\'s state at once (the apply workflow)')
    .requiredOption('--out <folder>', 'the folder the hand-off is written to (an artifact\'s folder)')
    .option('--branch <name>', 'with state home `file`: the branch the state is recorded on (default: GITHUB_REF_NAME)')
    .option(...remoteOption)
    .addHelpText('after', [
      '',
      'Writes one file: where the state lives, the state as applied, and the state as it was read before',
      'the apply (the base of the merge). postsync state record commits every calendar\'s hand-off at once.',
      '',
      'Example:',
      '  $ postsync state handoff --out "$RUNNER_TEMP/postsync-state"',
    ].join('\n'))
    .action(async (flags, command: Command) => exitWith((await import('./commands/state-home.js')).runStateHandoff(flags, command)));
  state
    .command('record')
    .description('record the states that apply jobs handed on (postsync state handoff) in their homes: one commit and one push per branch')
    .argument('<folder>', 'the folder of the hand-offs: one sub-folder per calendar, as actions/download-artifact lays them out')
    .option(...remoteOption)
    .option('--message <text>', 'the commit message', 'postsync: record applied posts')
    .addHelpText('after', [
      '',
      'Run it in a clone of the repository. Each branch (the state branch, or the default branch for state',
      'home `file`) gets one commit that changes only the states handed on, each merged entry by entry into',
      'what the branch holds. A push another writer got in before is fetched, merged and tried again, with',
      'growing waits, for up to five minutes.',
      '',
      'Example:',
      '  $ postsync state record "$RUNNER_TEMP/postsync-states" --message "postsync: record applied posts [skip ci]"',
    ].join('\n'))
    .action(async (folder: string, flags) => exitWith((await import('./commands/state-home.js')).runStateRecord(folder, flags)));
  state
    .command('show')
    .description('print where the state lives and its records by target, with their seals when the API key can check them')
    .option(...remoteOption)
    .option('--json', 'print one JSON document and nothing else')
    .addHelpText('after', '\nReads the state branch\'s tip (or the committed file) without touching the working file.\n\nExample:\n  $ postsync state show --json')
    .action(async (flags, command: Command) => exitWith((await import('./commands/state-home.js')).runStateShow(flags, command)));
  state
    .command('move-home')
    .description('move the state to a branch of its own (--to branch) or back to the committed file (--to file), and say so in postsync.yaml')
    .requiredOption('--to <home>', '`branch` or `file`')
    .option('--branch <name>', 'the state branch, with --to branch', 'postsync/state')
    .option(...remoteOption)
    .addHelpText('after', [
      '',
      '--to branch pushes the working state file to the branch (merged with what it holds), writes',
      '`state: { home: branch }` in postsync.yaml and takes the file out of git\'s index. --to file pulls the',
      'branch\'s state into the file and writes `state:` back as a path. Commit the result in a pull request.',
      '',
      'Example:',
      '  $ postsync state move-home --to branch',
    ].join('\n'))
    .action(async (flags, command: Command) => exitWith((await import('./commands/state-home.js')).runStateMoveHome(flags, command)));

  program
    .command('accounts')
    .description('list the accounts of the project with their aliases and posting rules (caption, attachments, media)')
    .option('--json', 'print one JSON document and nothing else')
    .addHelpText('after', '\nExample:\n  $ postsync accounts\n  $ postsync accounts --json | jq -r \'.accounts[] | "\\(.id) \\(.platform)"\'')
    .action(async (flags, command: Command) => exitWith((await import('./commands/accounts.js')).runAccounts(flags, command)));

  program
    .command('whoami')
    .description('show the target, project, key expiry and permissions of the API key (never the key)')
    .option('--json', 'print one JSON document and nothing else')
    .addHelpText('after', '\nExample:\n  $ POSTSYNC_API_URL=https://api.example.com/public/v1 POSTSYNC_API_KEY=... postsync whoami')
    .action(async (flags, command: Command) => exitWith((await import('./commands/whoami.js')).runWhoami(flags, command)));

  program
    .command('analytics')
    .description('show the metrics of each published post and account, joined with your post files')
    .option('--from <date>', 'published at or after this date/time (a date means midnight in the project time zone)')
    .option('--to <date>', 'published before this date/time (a date includes that whole day)')
    .option('--account <account>', 'only this account: an alias from postsync.yaml or an account uuid')
    .option('--platform <platform>', 'only this platform (e.g. photoC)')
    .addOption(new Option('--format <format>', 'output format (default: table on a terminal, csv otherwise)').choices(['table', 'csv', 'json']))
    .option('--json', 'same as --format json')
    .addHelpText('after', '\nExample:\n  $ postsync analytics --from 2026-12-01 --to 2026-12-31 --account photo\n  $ postsync analytics --format csv > december.csv')
    .action(async (flags, command: Command) => exitWith((await import('./commands/analytics.js')).runAnalytics(flags, command)));
}
