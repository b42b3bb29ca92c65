import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_API_KEY } from '../../src/emulator/index.js';
import { demoProject, post } from '../e2e/project.js';
import { runCli } from '../helpers/cli.js';
import { useEmulator } from '../helpers/emulator.js';

/**
 * A state file that cannot be trusted stops `apply` (and `plan`) before anything is written: a
 * clear error naming the file and saying how to recover, exit 1, no write request, the file left
 * byte for byte as it was, and no lock left behind.
 */
const emulator = useEmulator();
const env = { POSTSYNC_API_KEY: DEMO_API_KEY };
const RESTORE = /restore it from git/;

let dir: string;
let statePath: string;
let good: string;

type StateJson = { version: unknown; targets: Record<string, { posts: Record<string, Record<string, unknown>> } & Record<string, unknown>> };

function edited(change: (state: StateJson) => void): string {
  const state = JSON.parse(good) as StateJson;
  change(state);
  return JSON.stringify(state, null, 2);
}
const section = (state: StateJson) => Object.values(state.targets)[0]!;

/** A git merge of two branches that both applied: the conflict lands inside the post record. */
function withConflict(text: string): string {
  const lines = text.split('\n');
  const at = lines.findIndex((line) => line.includes('"postId"'));
  return [...lines.slice(0, at), '<<<<<<< HEAD', lines[at], '=======', lines[at]!.replace(/"[0-9a-f-]{36}"/, '"00000000-0000-4000-8000-000000000000"'), '>>>>>>> feature/launch', ...lines.slice(at + 1)].join('\n');
}

/** `plan` reads the state the same way; it is checked on two of the cases. */
const corruptions: { name: string; text: () => string; says: RegExp; hint: RegExp; alsoPlan?: boolean }[] = [
  { name: 'truncated JSON (a write cut short)', text: () => good.slice(0, Math.floor(good.length / 2)), says: /is not valid JSON/, hint: RESTORE, alsoPlan: true },
  { name: 'an empty file', text: () => '', says: /is not valid JSON/, hint: RESTORE },
  { name: 'git merge conflict markers', text: () => withConflict(good), says: /merge conflict markers/, hint: RESTORE, alsoPlan: true },
  { name: 'a post id of the wrong type', text: () => edited((s) => void (Object.values(section(s).posts)[0]!.postId = 42)), says: /is not a valid postsync state/, hint: RESTORE },
  { name: 'posts as a list', text: () => edited((s) => void (section(s).posts = [] as never)), says: /is not a valid postsync state/, hint: RESTORE },
  { name: 'a missing section field', text: () => edited((s) => void delete section(s).pending), says: /is not a valid postsync state/, hint: RESTORE },
  { name: 'JSON null', text: () => 'null\n', says: /is not a valid postsync state/, hint: RESTORE },
  { name: 'a version written as text', text: () => edited((s) => void (s.version = '1')), says: /is not a valid postsync state/, hint: RESTORE },
  { name: 'an unknown (newer) version', text: () => edited((s) => void (s.version = 2)), says: /has version 2; this postsync understands version 1/, hint: /Upgrade postsync/ },
];

beforeAll(async () => {
  dir = await demoProject({ 'launch.md': post({ body: 'We launch on Monday.' }), 'teaser.md': post({ body: 'A first look.' }) });
  statePath = join(dir, '.postsync/state.json');
  const first = await runCli(['--api-url', emulator().baseUrl, 'apply', '--yes'], { cwd: dir, env });
  expect(first.code, first.stderr).toBe(0);
  good = await readFile(statePath, 'utf8');
  // A pending edit and a new file: with a trusted state, apply would send an update and a create.
  await writeFile(join(dir, 'posts/launch.md'), post({ body: 'We launch on Tuesday.' }));
  await writeFile(join(dir, 'posts/new.md'), post({ body: 'Brand new.' }));
}, 60_000);

describe('a corrupted or hand-mangled state file', { timeout: 60_000 }, () => {
  it.each(corruptions)('$name: apply stops with a clear error, sends no write, and leaves the file as it was', async ({ text, says, hint, alsoPlan }) => {
    const mangled = text();
    await writeFile(statePath, mangled);
    const api = emulator();
    await api.clearLog();
    for (const args of alsoPlan ? [['apply', '--yes'], ['plan']] : [['apply', '--yes']]) {
      const result = await runCli(['--api-url', api.baseUrl, ...args], { cwd: dir, env });
      const context = `${args.join(' ')}\n${result.stdout}\n${result.stderr}`;
      expect(result.code, context).toBe(1);
      expect(result.stderr, context).toContain(statePath);
      expect(result.stderr, context).toMatch(says);
      expect(result.stderr, context).toMatch(hint);
      expect(result.stdout, context).not.toMatch(/Apply complete|create|update/);
    }
    const writes = (await api.requestLog()).filter((entry) => entry.method !== 'GET');
    expect(writes).toEqual([]);
    expect(await readFile(statePath, 'utf8')).toBe(mangled);
    expect(existsSync(`${statePath}.lock`), 'the state lock was released').toBe(false);
  });

  it('with the good file restored, the same apply goes through', async () => {
    await writeFile(statePath, good);
    const result = await runCli(['--api-url', emulator().baseUrl, 'apply', '--yes'], { cwd: dir, env });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('Apply complete: 1 created, 1 updated');
  });
});
