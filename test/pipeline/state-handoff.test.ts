import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError, StateError } from '../../src/errors.js';
import { HANDOFF_FILE, readHandoffs, type StateHandoff } from '../../src/pipeline/state-handoff.js';
import { testdir } from '../helpers/testdir.js';

const STATE = `${JSON.stringify({ version: 1, targets: {} }, null, 2)}\n`;
const valid: StateHandoff = { formatVersion: 1, calendar: 'clients/acme', home: 'branch', branch: 'postsync/state', path: 'clients/acme/.postsync/state.json', state: STATE, base: null };

/** A download folder as download-artifact lays it out: one sub-folder per artifact. */
async function downloaded(handoffs: Record<string, unknown>): Promise<string> {
  const root = await testdir();
  for (const [name, handoff] of Object.entries(handoffs)) {
    await mkdir(join(root, name), { recursive: true });
    await writeFile(join(root, name, HANDOFF_FILE), typeof handoff === 'string' ? handoff : JSON.stringify(handoff));
  }
  return root;
}

describe('readHandoffs: the hand-offs the record job downloaded, read as input', () => {
  it('reads one per artifact folder, and none from a folder that does not exist (no apply job handed one on)', async () => {
    const root = await downloaded({ 'postsync-state-clients-acme': valid, 'postsync-state-clients-bolt': { ...valid, calendar: 'clients/bolt', path: 'clients/bolt/.postsync/state.json', home: 'file', branch: 'main', base: STATE } });
    expect((await readHandoffs(root)).map((handoff) => `${handoff.calendar} ${handoff.home} ${handoff.branch}`)).toEqual(['clients/acme branch postsync/state', 'clients/bolt file main']);
    expect(await readHandoffs(join(root, 'missing'))).toEqual([]);
  });

  it.each([
    ['a path out of the repository', { path: '../outside/state.json' }, 'path'],
    ['a path into .git', { path: '.git/hooks/post-checkout' }, 'path'],
    ['an absolute path', { path: '/etc/cron.d/x' }, 'path'],
    ['a path with a line break', { path: 'clients/acme/.postsync/state.json\n100644 blob 0000\tREADME.md' }, 'path'],
    ['a branch git would read as an option', { branch: '--upload-pack=touch /tmp/x' }, 'branch'],
    ['an unknown home', { home: 'elsewhere' }, 'home'],
    ['another format', { formatVersion: 2 }, 'formatVersion'],
  ])('refuses %s before anything is committed, naming the field', async (_, change, field) => {
    const error = await readHandoffs(await downloaded({ a: { ...valid, ...change } })).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).message).toMatch(new RegExp(`is not a state hand-off postsync wrote: its field ${field} is missing or wrong$`));
  });

  it('refuses a state that is not one, and two hand-offs of the same file', async () => {
    await expect(readHandoffs(await downloaded({ a: { ...valid, state: '{"version": 1, "targets": [' } }))).rejects.toBeInstanceOf(StateError);
    await expect(readHandoffs(await downloaded({ a: 'not json' }))).rejects.toThrow(/is not a state hand-off: /);
    await expect(readHandoffs(await downloaded({ a: valid, b: valid }))).rejects.toThrow(/two state hand-offs in .* write clients\/acme\/\.postsync\/state\.json on postsync\/state/);
  });
});
