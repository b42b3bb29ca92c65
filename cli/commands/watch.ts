import type { Command } from 'commander';

export interface WatchFlags {
  /** Seconds between two reads of the remote data. */
  refresh?: number;
  applyDrafts?: boolean;
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
    const [{ globalOptions, isCI, loadProjectConfig, openTarget }, { WatchSession }, { watchPrinter }, { listenForKeys }] = await Promise.all([
      import('../context.js'),
      import('../../src/watch/session.js'),
      import('../views/watch.js'),
      import('../views/watch-keys.js'),
    ]);
    const options = globalOptions(command);
    if (isStopped()) return 0;
    const { config, connection, style, kept } = await openTarget(options);
    try {
      if (isStopped()) return 0;
      const redraw = process.stdout.isTTY === true && !isCI();
      const session = await WatchSession.start({
        config,
        reloadConfig: () => loadProjectConfig(options),
        connection,
        refreshSeconds: flags.refresh,
        applyDrafts: flags.applyDrafts ?? false,
        kept,
        onEvent: watchPrinter({ out: process.stdout, err: process.stderr, style, label: connection.label, redraw }),
      });
      const stopKeys = listenForKeys(process.stdin, { refresh: () => session.refresh(), quit: stop });
      await stopped;
      stopKeys();
      await session.close();
    } finally {
      await connection.close();
    }
    process.stdout.write(`${style.dim('Stopped watching.')}\n`);
    return 0;
  } finally {
    stop();
  }
}
