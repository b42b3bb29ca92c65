// Runs a measured child process: wall time from spawn to exit, and its peak RSS.
import { spawn } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { peakRssPreload } from './paths.mjs';

let counter = 0;

/**
 * `node --import peak-rss.mjs <nodeArgs> <args>`; resolves with { ms (wall, spawn to exit), cpuMs
 * (user + system of the child), peakRssMiB, code, stdout, stderr }. Rejects when the exit code is not in `okCodes`.
 */
export async function runMeasured(args, { cwd, env = {}, nodeArgs = [], okCodes = [0] } = {}) {
  const rssFile = join(tmpdir(), `postsync-bench-rss-${process.pid}-${counter++}`);
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', peakRssPreload, ...nodeArgs, ...args], {
    cwd,
    env: { ...process.env, NO_COLOR: '1', CI: '', ...env, BENCH_PEAK_RSS_FILE: rssFile },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stdout = [];
  const stderr = [];
  child.stdout.on('data', (chunk) => stdout.push(chunk));
  child.stderr.on('data', (chunk) => stderr.push(chunk));
  const code = await new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', resolve);
  });
  const ms = performance.now() - started;
  const usage = JSON.parse(await readFile(rssFile, 'utf8').catch(() => '{}'));
  await rm(rssFile, { force: true });
  const result = { ms, cpuMs: usage.cpuMs ?? NaN, peakRssMiB: (usage.maxRssKiB ?? NaN) / 1024, code, stdout: Buffer.concat(stdout).toString(), stderr: Buffer.concat(stderr).toString() };
  if (!okCodes.includes(code)) {
    throw new Error(`${args.join(' ')} exited with ${code}\n${result.stderr.slice(-2000)}\n${result.stdout.slice(-2000)}`);
  }
  return result;
}
