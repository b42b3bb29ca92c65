import { resolve } from 'node:path';
import type { Command } from 'commander';
import type { ClientEvent } from '../src/api/index.js';
import { loadConfig } from '../src/config/load-config.js';
import type { Config } from '../src/config/types.js';
import { RunCache } from '../src/cache/run-cache.js';
import { connect, type Connection } from '../src/run/connect.js';
import { createPlanCaches, type PlanCaches } from '../src/run/plan-caches.js';
import { styleFor, type Style } from './views/style.js';

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
  const ci = process.env.CI;
  return ci !== undefined && ci !== '' && ci !== 'false' && ci !== '0';
}

export function loadProjectConfig(options: GlobalOptions): Promise<Config> {
  const root = resolve(options.dir ?? process.cwd());
  return loadConfig({
    cwd: root,
    memo: runCacheAt(root, options).configFiles(),
    env: process.env,
    flags: { ...(options.apiUrl ? { apiUrl: options.apiUrl } : {}), ...(options.local ? { local: true } : {}) },
  });
}

/** Retries and waits go to stderr as dim notes (never in --json stdout); debug lines only with POSTSYNC_DEBUG=1. */
export function clientEventPrinter(style: Style): (event: ClientEvent) => void {
  return (event) => {
    switch (event.type) {
      case 'retry':
        process.stderr.write(style.dim(`  retrying ${event.method} ${event.path} in ${Math.round(event.delayMs)} ms (attempt ${event.attempt}: ${event.reason})\n`));
        break;
      case 'wait':
        process.stderr.write(style.dim(`  waiting ${event.seconds} s before retrying ${event.method} ${event.path} (${event.reason})\n`));
        break;
      case 'throttle':
        process.stderr.write(style.dim(`  pacing requests for ${Math.ceil(event.waitMs / 100) / 10} s to stay under the project's rate limit\n`));
        break;
      case 'debug':
        process.stderr.write(`${event.message}\n`);
        break;
    }
  };
}

/** Config + connection for a command that talks to the API; the caller closes the connection. */
export async function openTarget(options: GlobalOptions): Promise<{ config: Config; connection: Connection; style: Style }> {
  const style = styleFor(process.stdout, options);
  const config = await loadProjectConfig(options);
  const connection = await connect(config, { ci: isCI(), onClientEvent: clientEventPrinter(styleFor(process.stderr, options)) });
  return { config, connection, style };
}

/** The project's `.postsync/cache`, or a disabled one with --no-cache. */
export function openRunCache(config: Config, options: GlobalOptions): RunCache {
  return runCacheAt(config.root, options);
}

/** One RunCache per project folder in a process, so the config read and the run share it (and one `save`). */
const runCaches = new Map<string, RunCache>();

function runCacheAt(root: string, options: GlobalOptions): RunCache {
  const key = `${options.cache === false ? 'off' : 'on'}\0${root}`;
  let cache = runCaches.get(key);
  if (cache === undefined) {
    cache = RunCache.open(root, { enabled: options.cache !== false });
    runCaches.set(key, cache);
  }
  return cache;
}

/** The caches of one run, backed by `.postsync/cache` unless --no-cache; call `kept.save()` once the files are read. */
export function openPlanCaches(config: Config, options: GlobalOptions): PlanCaches & { kept: RunCache } {
  const kept = openRunCache(config, options);
  return { ...createPlanCaches(kept), kept };
}
