import { spawn } from 'node:child_process';
import { CLI, cliEnv, type CliResult } from '../helpers/cli.js';

/** How long one expected line may take to show up before the test fails with the output so far. */
const WAIT_MS = 10_000;

/**
 * A running `postsync watch` with its stdin kept open (for `r` / `q` lines), and a way to wait
 * for text in its output after a given point.
 */
export interface WatchProcess {
  /** Current end of stdout: pass it to `waitFor` to only look at what comes after. */
  mark(): number;
  stdout(): string;
  stderr(): string;
  /** Resolves with stdout from `from` once it contains `text` (or matches it). */
  waitFor(text: string | RegExp, from?: number): Promise<string>;
  send(line: string): void;
  stop(signal: NodeJS.Signals): Promise<CliResult>;
  done: Promise<CliResult>;
}

export function startWatchProcess(args: string[], options: { cwd: string; env?: Record<string, string | undefined> }): WatchProcess {
  const child = spawn(process.execPath, [CLI, ...args], { cwd: options.cwd, env: cliEnv(options.env), stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  const listeners = new Set<() => void>();
  const changed = () => listeners.forEach((listener) => listener());
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    changed();
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
    changed();
  });
  const done = new Promise<CliResult>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      changed();
      resolve({ code, signal, stdout, stderr });
    });
  });

  const waitFor = (text: string | RegExp, from = 0) =>
    new Promise<string>((resolve, reject) => {
      const found = () => {
        const seen = stdout.slice(from);
        return typeof text === 'string' ? seen.includes(text) : text.test(seen);
      };
      const check = () => {
        if (found()) finish(() => resolve(stdout.slice(from)));
        else if (child.exitCode !== null || child.signalCode !== null) finish(() => reject(failure('watch exited')));
      };
      const failure = (why: string) => new Error(`${why} before printing ${String(text)}\n--- stdout after mark ---\n${stdout.slice(from)}\n--- stderr ---\n${stderr}`);
      const timer = setTimeout(() => finish(() => reject(failure(`${WAIT_MS} ms passed`))), WAIT_MS);
      const finish = (settle: () => void) => {
        clearTimeout(timer);
        listeners.delete(check);
        settle();
      };
      listeners.add(check);
      check();
    });

  return {
    mark: () => stdout.length,
    stdout: () => stdout,
    stderr: () => stderr,
    waitFor,
    send: (line) => void child.stdin!.write(`${line}\n`),
    stop: (signal) => {
      child.kill(signal);
      return done;
    },
    done,
  };
}

/** The calendar address `watch --calendar` prints (with its token), once it has printed it. */
export async function calendarAddress(watch: WatchProcess): Promise<string> {
  return /Calendar: (http:\/\/127\.0\.0\.1:\d+\/\?t=[\w-]+) /.exec(await watch.waitFor(/Calendar: http:\/\/127\.0\.0\.1:\d+\/\?t=[\w-]+ /))![1]!;
}

/** `postsync watch --calendar` on `dir` against the API at `apiUrl` (remote read once an hour), once it printed the page's address (with its token). */
export async function startCalendarWatch(dir: string, options: { apiUrl: string; env?: Record<string, string | undefined> }): Promise<{ watch: WatchProcess; url: string }> {
  const watch = startWatchProcess(['-C', dir, '--api-url', options.apiUrl, 'watch', '--calendar', '--refresh', '3600'], { cwd: dir, ...(options.env === undefined ? {} : { env: options.env }) });
  return { watch, url: await calendarAddress(watch) };
}
