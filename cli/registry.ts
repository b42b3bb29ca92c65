import { Option, type Command } from 'commander';
import { addCommands, entry, flag, jsonFlag, repeatable, type CommandEntry } from './command-table.js';
import { stateCommands } from './state-commands.js';
import type { AccountsFlags } from './commands/accounts.js';
import type { AnalyticsFlags } from './commands/analytics.js';
import type { ApplyFlags } from './commands/apply.js';
import type { CalendarFlags } from './commands/calendar.js';
import type { CalendarsFlags } from './commands/calendars.js';
import type { HealthIssueFlags } from './commands/health-issue.js';
import type { ImportFlags } from './commands/import.js';
import type { PlanFlags } from './commands/plan.js';
import type { ServeFlags } from './commands/serve.js';
import type { StatusFlags } from './commands/status.js';
import type { WatchFlags } from './commands/watch.js';
import type { WhoamiFlags } from './commands/whoami.js';

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

const globalOptions = (): Option[] => [
  flag('-C, --dir <path>', 'project folder (holding postsync.yaml); default: the current folder'),
  flag('--api-url <url>', 'Public Posting API base URL (overrides POSTSYNC_API_URL and postsync.yaml)'),
  flag('--local', 'use the embedded local API even under CI'),
  flag('--no-color', 'plain output without colours (NO_COLOR is honoured too)'),
  flag('--no-cache', 'parse every post file and hash every media file afresh, ignoring and not writing .postsync/cache'),
];

/** The choices a person makes on the posts a plan holds: the same for plan and apply. */
const choices = () => [
  repeatable('--adopt <key=postId>', 'take that remote post as the post of a new file the plan holds (it names the candidates); repeatable'),
  repeatable('--recreate <key>', 'create anew the post of a key the plan holds: deleted on the remote, or a new file a remote post may be; repeatable'),
  flag('--recreate-all', 'create anew every post the plan holds as deleted on the remote, or as maybe a remote post'),
];

/** Every command, in the order `--help` lists them. */
const commands = (): CommandEntry<never, never>[] => [
  entry<PlanFlags & { all?: boolean }>({
    name: 'plan',
    description: 'show what apply would change on the remote, without changing anything',
    options: [
      flag('--out <file>', 'save the plan as JSON, to apply exactly it later with `postsync apply <file>`'),
      flag('--prune', 'plan deletes of owned posts whose files were removed (postsync.yaml can turn this on: `prune: true`)'),
      flag('--no-prune', 'plan no deletes of removed files\' posts even with `prune: true` in postsync.yaml'),
      flag('--refresh-all', 'list every remote post, history included, instead of only drafts, scheduled posts and owned posts not known to be published'),
      repeatable('--target <key>', 'limit the plan to a post key (repeatable)'),
      ...choices(),
      jsonFlag(),
      flag('--markdown', 'print the plan as Markdown (for pull requests)'),
      flag('--verbose', 'also list unchanged posts'),
      flag('--full-text', 'show a changed or new text whole, its changes marked, instead of the changed words with a few words around them'),
      flag('--detailed-exitcode', 'exit 2 when there are changes, 0 when there are none'),
      flag('--all', 'plan every calendar: each folder below this one that holds a postsync.yaml (exit 1 if any failed, else 2 with --detailed-exitcode if any has changes)'),
    ],
    async run({ flags, command }) {
      const { runPlan } = await import('./commands/plan.js');
      if (!flags.all) return runPlan(flags, command);
      const { runInEveryCalendar } = await import('./all-calendars.js');
      return runInEveryCalendar(command, (scoped) => runPlan(flags, scoped), { refuse: { '--out': flags.out, '--json': flags.json, '--target': flags.target } });
    },
  }),
  entry<{ json?: boolean }>({
    name: 'validate',
    description: 'check every post file, and each post against the rules of its accounts; changes nothing',
    options: [jsonFlag()],
    run: async ({ flags, command }) => (await import('./commands/validate.js')).runValidate(flags, command),
  }),
  entry<ApplyFlags & { all?: boolean }, [string | undefined]>({
    name: 'apply',
    args: [['[planfile]', 'a plan saved by `postsync plan --out`; applied exactly, refused when stale (exit 3)']],
    description: 'make the remote match the files: upload media, create, update, move and (with --prune) delete posts',
    options: [
      flag('-y, --yes', 'do not ask for confirmation (required outside a terminal)'),
      flag('--prune', 'delete owned posts whose files were removed (postsync.yaml can turn this on: `prune: true`)'),
      flag('--no-prune', 'delete no removed file\'s post even with `prune: true` in postsync.yaml (its scheduled post goes back to draft)'),
      flag('--refresh-all', 'plan against every remote post, history included, instead of only drafts, scheduled posts and owned posts not known to be published'),
      repeatable('--target <key>', 'limit apply to a post key (repeatable)'),
      ...choices(),
      flag('--strict', 'all or nothing: apply nothing while any file has an error (by default the posts of invalid files are blocked and the rest is applied)'),
      jsonFlag(),
      new Option('--concurrency <n>', 'post writes in flight').argParser(positiveInteger).default(4),
      flag('--all', 'apply every calendar: each folder below this one that holds a postsync.yaml, each with its own target, state and lock (exit 1 if any failed)'),
    ],
    async run({ args: [planFile], flags, command }) {
      const { runApply } = await import('./commands/apply.js');
      if (!flags.all) return runApply(planFile, flags, command);
      const { runInEveryCalendar } = await import('./all-calendars.js');
      return runInEveryCalendar(command, (scoped) => runApply(undefined, flags, scoped), { refuse: { 'a plan file': planFile, '--json': flags.json, '--target': flags.target } });
    },
  }),
  entry<{ updateAction?: boolean; check?: boolean; checkAction?: boolean; example?: boolean; defaultBranch?: string }>({
    name: 'init',
    description: 'start a project in --dir (default: here): postsync.yaml, a first post, an image, GitHub workflows and the action they run, .gitignore entries',
    options: [
      flag('--update-action', 'only replace .github/actions/postsync/ (the action the workflows run) with this postsync version\'s; writes nothing else'),
      flag('--default-branch <name>', 'the branch the apply workflow applies (default: the repository\'s default branch as git knows it: origin/HEAD, else the branch checked out, else main)'),
      flag('--check-action', 'write nothing; check that .github/actions/postsync/ is exactly this postsync version\'s action, byte for byte (exit 1, naming each file that differs, when not)'),
      flag('--example', 'write the example calendar (a coffee roaster\'s January campaign: 26 posts with their media) instead of a first post'),
      flag('--check', 'write nothing; check that the apply workflow applies the repository\'s default branch (exit 1 when not)'),
    ],
    helpAfter: '\nNever overwrites a file: when one exists, init lists it and writes nothing (exit 1).\nThe workflows run the copy of the postsync action in .github/actions/postsync/, never code fetched when\nthey run; --update-action moves them to the postsync version you run it with.\n\nExample:\n  $ postsync init --dir my-calendar && cd my-calendar && postsync plan\n  $ postsync init --example --dir example && postsync -C example --local apply --yes',
    run: async ({ flags, command }) =>
      (await import('./commands/init.js')).runInit(command, { updateAction: flags.updateAction === true, check: flags.check === true, checkAction: flags.checkAction === true, example: flags.example === true, ...(flags.defaultBranch === undefined ? {} : { defaultBranch: flags.defaultBranch }) }),
  }),
  entry<ServeFlags>({
    name: 'serve',
    description: 'run the local Public Posting API (the emulator postsync targets by default); prints its base URL, then the control token that a changing /_emulator/ request sends as X-Postsync-Token',
    options: [
      flag('--host <host>', 'interface to listen on').default('127.0.0.1'),
      flag('--port <port>', 'port to listen on (0: any free port)').default('0'),
      flag('--fixture <file>', 'projects, keys and accounts (YAML or JSON); default: the demo fixture'),
      flag('--data <dir>', 'persist everything in this directory (journal + objects); default: in memory'),
      flag('--chaos <spec>', 'seeded fault injection: rate=0.2,seed=42[,kinds=503+500+429+reset+reset-after+slow]'),
      flag('--idempotency-ttl <seconds>', 'seconds of emulator time a create\'s Idempotency-Key is remembered (0: forget at once)').default('86400'),
    ],
    run: async ({ flags }) => (await import('./commands/serve.js')).runServe(flags),
  }),
  entry<WatchFlags>({
    name: 'watch',
    description: 'watch the files: after every save, show the problems and how the plan changed; applies nothing unless --apply-drafts',
    options: [
      new Option('--refresh <seconds>', 'seconds between two reads of the remote posts and account rules (r re-reads at once)').argParser(positiveInteger).default(60),
      flag('--apply-drafts', 'apply changes that only touch drafts at once (never scheduling, unscheduling, deletes or moves)'),
      flag('--calendar', 'also serve the calendar page on 127.0.0.1, updated after every save without a reload, where posts can be moved and edited (each edit is written to its post file; open the printed address: it holds the token of this watch)'),
      new Option('--port <n>', 'port of the calendar page (default: any free port)').argParser(port),
    ],
    run: async ({ flags, command }) => (await import('./commands/watch.js')).runWatch(flags, command),
  }),
  entry<CalendarFlags>({
    name: 'calendar',
    description: 'write the content calendar as a web page: month and week views, a preview per account, the plan overlaid',
    options: [
      flag('--out <dir>', 'folder for index.html and its thumbnails (default: .postsync/calendar)'),
      flag('--from <date>', 'only posts at or after this date/time (a date means midnight in the project time zone)'),
      flag('--to <date>', 'only posts before this date/time (a date includes that whole day)'),
      flag('--open', 'open the page in the default browser'),
      flag('--ics <file>', 'also write the scheduled posts as an iCalendar feed (RFC 5545) to this file'),
    ],
    helpAfter: '\nThe page is one self-contained file (plus copied images): open it from disk or share it as a CI artifact.\nUnscheduled drafts sit in a tray; each card opens the post\'s file, plan change and per-account preview.\nWhen the API cannot be reached, statuses come from the state file and the plan is left out.\n\nExample:\n  $ postsync calendar --open\n  $ postsync calendar --from 2027-01-01 --to 2027-01-31 --out january --ics january/calendar.ics',
    run: async ({ flags, command }) => (await import('./commands/calendar.js')).runCalendar(flags, command),
  }),
  entry<StatusFlags>({
    name: 'status',
    description: 'show where each managed post stands on the remote, by file: status, schedule, per-account results and errors',
    options: [
      jsonFlag(),
      flag('--problems', 'only the posts that need a person: drifted (changed or deleted on the remote), failed or partly published, and blocked (an account unavailable)'),
      flag('--exit-code', 'with --problems: exit 1 when a post failed to publish, was partly published or is blocked (drifted posts are listed, not counted); in GitHub Actions the job summary lists them'),
      flag('--refresh-all', 'read every remote post, history included, instead of only drafts, scheduled posts and owned posts not known to be published'),
    ],
    helpAfter: '\nExample:\n  $ postsync status\n  $ postsync status --problems\n  $ postsync status --json | jq \'.posts[] | select(.status == "failed")\'',
    run: async ({ flags, command }) => (await import('./commands/status.js')).runStatus(flags, command),
  }),
  entry<ImportFlags>({
    name: 'import',
    description: 'turn remote posts that postsync does not manage yet into post files, and adopt them in the state',
    options: [
      flag('--dry-run', 'show the files that would be written, and write nothing'),
      flag('--status <status>', 'only posts with this status (e.g. draft, scheduled, published)'),
      flag('--all', 'also posts that can no longer be edited (published, failed...); default: draft and scheduled only'),
      jsonFlag(),
    ],
    helpAfter: '\nFiles go to <content>/imported/<yyyy-mm>/ (drafts: imported/drafts/);\nan existing file is never overwritten. Media not uploaded from this project are\ndownloaded from the service into media/imported/ (--dry-run only lists them). Posts\nwhose file could not reproduce them exactly, or whose media cannot be downloaded,\nare skipped, each with the reason.\n\nExample:\n  $ postsync import --dry-run\n  $ postsync import && postsync plan    # the plan shows the imported posts unchanged',
    run: async ({ flags, command }) => (await import('./commands/import.js')).runImport(flags, command),
  }),
  entry<CalendarsFlags>({
    name: 'calendars',
    description: 'list the calendars below this folder (each folder with a postsync.yaml) and the names of their secrets',
    options: [
      flag('--changed <file>', "only the calendars that contain one of the paths listed in this file: one per line, git's \"quoted\" form too, or NUL-separated as git diff -z writes them (- reads stdin)"),
      jsonFlag(),
    ],
    helpAfter: '\nFolders whose secret names would be the same (acme-eu, acme_eu) are refused: rename one.\nIn GitHub Actions the list is also the step output `calendars`, a JSON array for a job matrix.\n\nExample:\n  $ git diff --name-only -z HEAD~1 HEAD | postsync calendars --changed -',
    run: async ({ flags, command }) => (await import('./commands/calendars.js')).runCalendars(flags, command),
  }),
  entry<HealthIssueFlags>({
    name: 'health-issue',
    description: 'open, update or close one GitHub issue for this calendar from what plan and status --problems found (the health check workflow runs it)',
    options: [
      flag('--plan <file>', 'what `postsync plan --detailed-exitcode --json` printed').makeOptionMandatory(),
      flag('--plan-exit <code>', 'the exit code of that plan (2, changes, is not a failure)').makeOptionMandatory(),
      flag('--status <file>', 'what `postsync status --problems --json` printed').makeOptionMandatory(),
      flag('--status-exit <code>', 'the exit code of that status').makeOptionMandatory(),
      repeatable('--log <file>', 'what the two commands wrote to stderr, quoted when one could not run (repeatable)'),
      flag('--print', 'print the issue instead of writing it (no GITHUB_TOKEN needed)'),
    ],
    helpAfter: '\nReads GITHUB_TOKEN, GITHUB_REPOSITORY, GITHUB_API_URL, GITHUB_SERVER_URL, GITHUB_SHA and GITHUB_RUN_ID,\nas a GitHub Actions runner sets them; the issue carries the label postsync-health.',
    run: async ({ flags, command }) => (await import('./commands/health-issue.js')).runHealthIssue(flags, command),
  }),
  { name: 'state', description: 'work on the state file (.postsync/state.json) itself, and on its home (the default branch, or a state branch)', subcommands: stateCommands() },
  entry<AccountsFlags>({
    name: 'accounts',
    description: 'list the accounts of the project with their aliases and posting rules (caption, attachments, media)',
    options: [jsonFlag()],
    helpAfter: '\nExample:\n  $ postsync accounts\n  $ postsync accounts --json | jq -r \'.accounts[] | "\\(.id) \\(.platform)"\'',
    run: async ({ flags, command }) => (await import('./commands/accounts.js')).runAccounts(flags, command),
  }),
  entry<WhoamiFlags>({
    name: 'whoami',
    description: 'show the target, project, key expiry and permissions of the API key (never the key)',
    options: [jsonFlag()],
    helpAfter: '\nExample:\n  $ POSTSYNC_API_URL=https://api.example.com/public/v1 POSTSYNC_API_KEY=... postsync whoami',
    run: async ({ flags, command }) => (await import('./commands/whoami.js')).runWhoami(flags, command),
  }),
  entry<AnalyticsFlags>({
    name: 'analytics',
    description: 'show the metrics of each published post and account, joined with your post files',
    options: [
      flag('--from <date>', 'published at or after this date/time (a date means midnight in the project time zone)'),
      flag('--to <date>', 'published before this date/time (a date includes that whole day)'),
      flag('--account <account>', 'only this account: an alias from postsync.yaml or an account uuid'),
      flag('--platform <platform>', 'only this platform (e.g. photoC)'),
      new Option('--format <format>', 'output format (default: table on a terminal, csv otherwise)').choices(['table', 'csv', 'json']),
      flag('--json', 'same as --format json'),
    ],
    helpAfter: '\nExample:\n  $ postsync analytics --from 2026-12-01 --to 2026-12-31 --account photo\n  $ postsync analytics --format csv > december.csv',
    run: async ({ flags, command }) => (await import('./commands/analytics.js')).runAnalytics(flags, command),
  }),
];

/** Declares the global options and every command of the table on `program`. */
export function registerCommands(program: Command): void {
  for (const option of globalOptions()) program.addOption(option);
  addCommands(program, commands());
}
