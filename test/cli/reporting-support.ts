import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ALL_PERMISSIONS } from '../../src/api/types.js';
import type { Fixture } from '../../src/emulator/index.js';
import { makePng } from '../helpers/media-generators/index.js';
import type { StateFile } from '../../src/state/types.js';

/** Shared by the status, import, accounts, whoami and analytics CLI tests. */

export const BIN = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));

export function requireBuild(): void {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run \`npm run build\` (npm test builds first)`);
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the built CLI in `cwd` with the demo key, outside CI, without colour; never rejects. */
export function runCli(args: string[], options: { cwd: string; env?: Record<string, string | undefined> }): Promise<CliResult> {
  const env: Record<string, string | undefined> = { ...process.env, POSTSYNC_API_KEY: 'demo-key', NO_COLOR: '1', ...options.env };
  delete env.CI;
  delete env.POSTSYNC_API_URL;
  if (options.env && 'CI' in options.env) env.CI = options.env.CI;
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { cwd: options.cwd, env, encoding: 'utf8' }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/** Runs the CLI and parses its --json stdout, failing loudly with stderr when it did not exit 0. */
export async function runJson<T = any>(args: string[], options: { cwd: string }): Promise<T> {
  const result = await runCli([...args, '--json'], options);
  if (result.code !== 0) throw new Error(`postsync ${args.join(' ')} exited ${result.code}\n${result.stderr}${result.stdout}`);
  return JSON.parse(result.stdout) as T;
}

/** Account ids of the test fixtures (all photoC, so one PNG serves every post). */
export const ACCOUNTS = {
  ok: '11111111-1111-4111-8111-111111111111',
  slow: '22222222-2222-4222-8222-222222222222',
  broken: '33333333-3333-4333-8333-333333333333',
  off: '44444444-4444-4444-8444-444444444444',
} as const;

/** A `demo` project with the demo key and photoC accounts that publish, get throttled, fail, or are unavailable. */
export function reportingFixture(overrides: { keys?: Fixture['projects'][number]['keys'] } = {}): Fixture {
  return {
    projects: [
      {
        id: 'demo',
        keys: overrides.keys ?? [{ token: 'demo-key', permissions: [...ALL_PERMISSIONS] }],
        accounts: [
          { id: ACCOUNTS.ok, platform: 'photoC', handle: '@ok', status: 'active' },
          { id: ACCOUNTS.slow, platform: 'photoC', handle: '@slow', status: 'active', publishBehavior: 'throttle' },
          { id: ACCOUNTS.broken, platform: 'photoC', handle: '@broken', status: 'active', publishBehavior: 'fail' },
          { id: ACCOUNTS.off, platform: 'photoC', handle: '@off', status: 'active', available: false, unavailableReason: 'token revoked by the owner' },
        ],
      },
    ],
  };
}

/** Project files: postsync.yaml with aliases for the fixture accounts, and a PNG at media/pic.png. */
export function projectFiles(extra: Record<string, string> = {}): Record<string, string | Buffer> {
  const aliases = Object.entries(ACCOUNTS).map(([alias, id]) => `  ${alias}: ${id}`).join('\n');
  return { 'postsync.yaml': `timezone: UTC\naccounts:\n${aliases}\n`, 'media/pic.png': makePng({ width: 32, height: 32 }), ...extra };
}

/** A post file; `scheduledAt` as an ISO string, targets as aliases. */
export function postFile(options: { text: string; targets?: string[]; scheduledAt?: string; media?: boolean }): string {
  const lines = ['---'];
  if (options.scheduledAt) lines.push(`scheduledAt: ${options.scheduledAt}`);
  if (options.targets?.length) lines.push('targets:', ...options.targets.map((target) => `  - ${target}`));
  if (options.media) lines.push('media: [media/pic.png]');
  lines.push('---', options.text, '');
  return lines.join('\n');
}

export async function readStateFile(dir: string): Promise<StateFile> {
  return JSON.parse(await readFile(join(dir, '.postsync/state.json'), 'utf8')) as StateFile;
}

export async function writeStateFile(dir: string, state: StateFile): Promise<void> {
  await writeFile(join(dir, '.postsync/state.json'), `${JSON.stringify(state, null, 2)}\n`);
}

/** The only target section of a state file (tests use one target per project). */
export function onlySection(state: StateFile) {
  const sections = Object.values(state.targets);
  if (sections.length !== 1) throw new Error(`expected one state section, found ${sections.length}`);
  return sections[0]!;
}

/** An ISO instant `hours` from now (content checks refuse schedules in the past). */
export function hoursFromNow(hours: number): string {
  return new Date(Date.now() + hours * 3_600_000).toISOString();
}
