import { spawn } from 'node:child_process';
import { join, relative, resolve } from 'node:path';
import type { Command } from 'commander';
import { calendarOf, feedScope } from '../../src/calendar/calendar-of.js';
import { renderIcs } from '../../src/calendar/ics.js';
import { readCalendarSources } from '../../src/calendar/read-calendar.js';
import { MEDIA_FOLDER, writeCalendarIgnoreFile, writeCalendarPage, writeFeed } from '../../src/calendar/write-calendar.js';
import { InputError } from '../../src/errors.js';
import { connect } from '../../src/pipeline/connect.js';
import { rangeBound } from '../../src/reports/read-analytics.js';
import { clientEventPrinter, globalOptions, isCI, loadProjectConfig, openMemo } from '../context.js';
import { styleFor } from '../views/style.js';
import { calendarLines } from '../views/calendar.js';
import { writeWorkflowCommand } from '../workflow-output.js';
import { err, out } from '../output.js';
import { term } from '../../src/text/terminal.js';
import { guardWrite, namedPathRoot } from '../../src/write-guard/guard-write.js';

export interface CalendarFlags {
  out?: string;
  from?: string;
  to?: string;
  open?: boolean;
  ics?: string;
}

/** Where the page goes without --out: inside .postsync/, with a .gitignore of its own. */
const DEFAULT_CALENDAR_DIR = '.postsync/calendar';

/**
 * Writes the calendar page (and with --ics the feed). Exit 0 even when files have problems: the
 * page shows them; `plan` and `validate` are the commands that fail on them.
 */
export async function runCalendar(flags: CalendarFlags, command: Command): Promise<number> {
  const options = globalOptions(command);
  const config = await loadProjectConfig(options);
  const range = {
    from: flags.from === undefined ? null : rangeBound('--from', flags.from, config.timezone),
    to: flags.to === undefined ? null : rangeBound('--to', flags.to, config.timezone),
  };
  if (range.from !== null && range.to !== null && Date.parse(range.from) >= Date.parse(range.to)) {
    throw new InputError(`--from (${range.from}) is not before --to (${range.to})`, { hint: 'Swap them, or widen the range.' });
  }
  const now = new Date();
  const memo = openMemo(options);
  const sources = await readCalendarSources({
    config,
    memo,
    now,
    connect: () => connect(config, { ci: isCI(), onClientEvent: clientEventPrinter(styleFor(process.stderr, options)) }),
  });
  await memo.save();
  const { model, thumbnails } = calendarOf(sources, { config, now, range, mediaPrefix: MEDIA_FOLDER });

  // The default folder is the project's; a folder named with --out is the user's, written only inside.
  const outDir = flags.out === undefined ? join(config.root, DEFAULT_CALENDAR_DIR) : resolve(flags.out);
  const root = flags.out === undefined ? config.root : outDir;
  // The --out folder itself may be a link a pull request committed under that name.
  if (flags.out !== undefined) await guardWrite(outDir, namedPathRoot(outDir));
  if (flags.out === undefined) await writeCalendarIgnoreFile(outDir, { root });
  const written = await writeCalendarPage(outDir, model, thumbnails, { root });
  const feed = flags.ics === undefined ? null : resolve(flags.ics);
  if (feed !== null) await writeFeed(feed, renderIcs(model, { scope: feedScope(config) }));

  const shown = (path: string) => relative(process.cwd(), path) || path;
  out.write(calendarLines(model, { page: shown(written.page), feed: feed === null ? null : shown(feed) }));
  if (process.env.GITHUB_ACTIONS === 'true') {
    const { reportCalendarToGitHubActions } = await import('../../src/actions/calendar-report.js');
    await reportCalendarToGitHubActions(model, { env: process.env, projectRoot: config.root, annotate: writeWorkflowCommand, note: (line) => err.write(term`${line}\n`) });
  }
  if (flags.open) openInBrowser(written.page);
  return 0;
}

/** The desktop's way to open a file; when there is none, the path printed above is enough. */
function openInBrowser(file: string): void {
  const [program, ...args] = process.platform === 'darwin' ? ['open', file] : process.platform === 'win32' ? ['cmd', '/c', 'start', '', file] : ['xdg-open', file];
  const child = spawn(program!, args, { detached: true, stdio: 'ignore' });
  child.on('error', () => err.write(term`Could not open a browser (${program!} is not available); open ${file} yourself.\n`));
  child.unref();
}
