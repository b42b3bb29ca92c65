import { resolve } from 'node:path';
import type { Command } from 'commander';
import type { ClientEvent } from '../src/api/index.js';
import { isCiEnvironment } from '../src/config/api-environment.js';
import { loadConfig } from '../src/config/load-config.js';
import type { Config } from '../src/config/types.js';
import { RunCache } from '../src/cache/run-cache.js';
import { connect, type Connection } from '../src/pipeline/connect.js';
import { styleFor, type Style } from './views/style.js';
import { term } from '../src/text/terminal.js';
import { err } from './output.js';

/** Options every command accepts (declared once on the program). */
export interface GlobalOptions {
  dir?: string;
  apiUrl?: string;
  local?: boolean;
  color?: boolean;
  /** false with --no-cache. */
  cache?: boolean;
}

export function globalOptions(command: Command): GlobalOptions {
  return command.optsWithGlobals<GlobalOptions>();
}

export function isCI(): boolean {
  return isCiEnvironment(process.env);
}

/** The project folder's `.postsync/cache` (a disabled one with --no-cache), opened once per command. */
export function openMemo(options: GlobalOptions): RunCache {
  return RunCache.open(projectRoot(options), { enabled: options.cache !== false, onNotice: (line) => err.write(term`postsync: ${line}\n`) });
}

/** postsync.yaml with the environment and the flags. */
export function loadProjectConfig(options: GlobalOptions): Promise<Config> {
  return loadConfig({
    cwd: projectRoot(options),
    env: process.env,
    flags: { ...(options.apiUrl ? { apiUrl: options.apiUrl } : {}), ...(options.local ? { local: true } : {}) },
  });
}

function projectRoot(options: GlobalOptions): string {
  return resolve(options.dir ?? process.cwd());
}

/** Retries and waits go to stderr as dim notes (never in --json stdout); debug lines only with POSTSYNC_DEBUG=1. */
export function clientEventPrinter(style: Style): (event: ClientEvent) => void {
  return (event) => {
    switch (event.type) {
      case 'retry':
        err.write(style.dim(term`  retrying ${event.method} ${event.path} in ${Math.round(event.delayMs)} ms (attempt ${event.attempt}: ${event.reason})\n`));
        break;
      case 'wait':
        err.write(style.dim(term`  waiting ${event.seconds} s before retrying ${event.method} ${event.path} (${event.reason})\n`));
        break;
      case 'throttle':
        err.write(style.dim(term`  pacing requests for ${Math.ceil(event.waitMs / 100) / 10} s to stay under the project's rate limit\n`));
        break;
      case 'debug':
        err.write(term`${event.message}\n`);
        break;
    }
  };
}

/** Config + connection for a command that talks to the API, and the project's cache; the caller closes the connection. */
export async function openProject(options: GlobalOptions): Promise<{ config: Config; connection: Connection; style: Style; memo: RunCache }> {
  const style = styleFor(process.stdout, options);
  const config = await loadProjectConfig(options);
  const memo = openMemo(options);
  const connection = await connect(config, { ci: isCI(), onClientEvent: clientEventPrinter(styleFor(process.stderr, options)) });
  return { config, connection, style, memo };
}
