import { term } from '../../src/text/terminal.js';
import { out } from '../output.js';
import type { Command } from 'commander';
import { InputError } from '../../src/errors.js';
import type { WatchCalendar } from '../watch-calendar.js';

export interface WatchFlags {
  /** Seconds between two reads of the remote data. */
  refresh?: number;
  applyDrafts?: boolean;
  /** Serve the calendar page, updated after every save. */
  calendar?: boolean;
  /** Its port (0: any free port). */
  port?: number;
}

/** Resolves on the first SIGINT or SIGTERM (or `stop()`), from the moment it is called. */
function stopSignal(): { stopped: Promise<void>; stop: () => void; isStopped: () => boolean } {
  let stop = () => {};
  let isStopped = false;
  const stopped = new Promise<void>((resolve) => {
    stop = () => {
      isStopped = true;
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
  });
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  return { stopped, stop, isStopped: () => isStopped };
}

/**
 * Watches the files and shows, after every save, the problems and the plan as they changed.
 * Runs until Ctrl-C, SIGTERM or `q`, then exits 0 with the watcher, the connection (and the
 * embedded local API) closed and the terminal restored. The signals are caught from the start
 * (the watch modules load after), so Ctrl-C while starting up also ends cleanly with 0.
 */
export async function runWatch(flags: WatchFlags, command: Command): Promise<number> {
  const { stopped, stop, isStopped } = stopSignal();
  try {
    const [{ globalOptions, isCI, loadProjectConfig, openProject }, { WatchSession }, { watchPrinter }, { listenForKeys }] = await Promise.all([
      import('../context.js'),
      import('../../src/watch/session.js'),
      import('../views/watch.js'),
      import('../views/watch-keys.js'),
    ]);
    const options = globalOptions(command);
    if (isStopped()) return 0;
    if (flags.port !== undefined && !flags.calendar) throw new InputError('--port is the port of the calendar page: use it with --calendar.', { hint: 'postsync watch --calendar --port 4173' });
    const { config, connection, style, memo } = await openProject(options);
    const redraw = process.stdout.isTTY === true && !isCI();
    const printer = watchPrinter({ out: process.stdout, err: process.stderr, style, label: connection.label, timezone: config.timezone, redraw });
    let calendar: WatchCalendar | null = null;
    try {
      if (flags.calendar) calendar = await (await import('../watch-calendar.js')).startWatchCalendar({ port: flags.port ?? 0, label: connection.label, project: config, onError: (error) => printer({ type: 'error', at: new Date(), during: 'plan', error }) });
      if (isStopped()) return 0;
      const session = await WatchSession.start({
        config,
        reloadConfig: () => loadProjectConfig(options),
        connection,
        refreshSeconds: flags.refresh,
        applyDrafts: flags.applyDrafts ?? false,
        memo,
        onEvent: (event) => {
          printer(event);
          if (calendar === null) return;
          calendar.onEvent(event);
          // Under the first plan, and under each one when the screen is redrawn.
          if (event.type === 'started' || (event.type === 'plan' && redraw)) out.write(term`${style.dim(term`Calendar: ${calendar.url} (updates after every save)`)}\n`);
        },
      });
      calendar?.attach(session);
      const stopKeys = listenForKeys(process.stdin, { refresh: () => session.refresh(), quit: stop });
      await stopped;
      stopKeys();
      await session.close();
    } finally {
      await memo.save();
      await calendar?.close();
      await connection.close();
    }
    out.write(term`${style.dim(term`Stopped watching.`)}\n`);
    return 0;
  } finally {
    stop();
  }
}
