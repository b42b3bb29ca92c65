import type { Command } from 'commander';
import { WatchSession } from '../../src/watch/session.js';
import { globalOptions, isCI, loadProjectConfig, openTarget } from '../context.js';
import { watchPrinter } from '../views/watch.js';
import { listenForKeys } from '../views/watch-keys.js';

export interface WatchFlags {
  /** Seconds between two reads of the remote data. */
  refresh?: number;
  applyDrafts?: boolean;
}

/**
 * Watches the files and shows, after every save, the problems and the plan as they changed.
 * Runs until Ctrl-C, SIGTERM or `q`, then exits 0 with the watcher, the connection (and the
 * embedded local API) closed and the terminal restored.
 */
export async function runWatch(flags: WatchFlags, command: Command): Promise<number> {
  const options = globalOptions(command);
  const { config, connection, style } = await openTarget(options);
  const redraw = process.stdout.isTTY === true && !isCI();
  let session: WatchSession;
  try {
    session = await WatchSession.start({
      config,
      reloadConfig: () => loadProjectConfig(options),
      connection,
      refreshSeconds: flags.refresh,
      applyDrafts: flags.applyDrafts ?? false,
      onEvent: watchPrinter({ out: process.stdout, err: process.stderr, style, label: connection.label, redraw }),
    });
  } catch (error) {
    await connection.close();
    throw error;
  }

  let stopKeys = () => {};
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    stopKeys = listenForKeys(process.stdin, { refresh: () => session.refresh(), quit: stop });
  });
  stopKeys();
  try {
    await session.close();
  } finally {
    await connection.close();
  }
  process.stdout.write(`${style.dim('Stopped watching.')}\n`);
  return 0;
}
