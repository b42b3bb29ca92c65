import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../src/emulator/index.js';
import { calendarAt, findCalendars, pathsByCalendar, secretSuffix } from '../../src/config/find-calendars.js';
import { combinedExitCode } from '../../cli/all-calendars.js';
import { runCli } from '../helpers/cli.js';
import { useEmulator } from '../helpers/emulator.js';
import { testdir } from '../helpers/testdir.js';

/** `plan --all` / `apply --all` and `postsync calendars`: one repository, several calendars. */

const first = useEmulator();
const second = useEmulator();

const config = (url: string) => `api:\n  url: ${url}\ntimezone: UTC\naccounts:\n  photo: ${DEMO_ACCOUNTS.photo}\n`;
const draft = (text: string) => `---\ntargets: []\n---\n${text}\n`;

async function agency(): Promise<string> {
  return testdir({
    'clients/acme/postsync.yaml': config(first().baseUrl),
    'clients/acme/posts/hello.md': draft('Hello from Acme'),
    'clients/acme/posts/news.md': draft('Acme news'),
    'clients/bolt/postsync.yaml': config(second().baseUrl),
    'clients/bolt/posts/hello.md': draft('Hello from Bolt'),
    // A typo in its configuration: this calendar cannot even be planned.
    'clients/crux/postsync.yaml': `timezon: UTC\n`,
    'clients/crux/posts/hello.md': draft('Hello from Crux'),
    'node_modules/some-package/postsync.yaml': 'timezone: UTC\n',
    'README.md': '# Our clients\n',
  });
}

const run = (dir: string, ...args: string[]) => runCli(args, { cwd: dir, env: { POSTSYNC_API_KEY: 'demo-key' } });

describe('postsync plan --all and apply --all', () => {
  it('runs every calendar with its own target and state; only the broken one fails', async () => {
    const dir = await agency();
    const plan = await run(dir, 'plan', '--all', '--detailed-exitcode');
    expect(plan.code).toBe(1);
    const sections = plan.stdout.split(/^── /m).slice(1);
    expect(sections.map((section) => section.split(' ──')[0])).toEqual(['clients/acme', 'clients/bolt', 'clients/crux']);
    expect(sections[0]).toContain(`Target: ${first().baseUrl} (project demo)`);
    expect(sections[0]).toContain('Plan: 2 to create, 0 to update, 0 to delete.');
    expect(sections[1]).toContain(`Target: ${second().baseUrl} (project demo)`);
    expect(sections[1]).toContain('Plan: 1 to create, 0 to update, 0 to delete.');
    expect(plan.stdout).toContain('3 calendars: 1 failed (clients/crux); some have changes.');
    expect(plan.stderr).toContain('unknown field `timezon`');

    const apply = await run(dir, 'apply', '--all', '--yes');
    expect(apply.code).toBe(1);
    expect(apply.stdout).toContain('Apply complete: 2 created, 0 updated, 0 deleted, 0 moved, 0 adopted; 0 media uploaded.');
    expect(apply.stdout).toContain('Apply complete: 1 created, 0 updated, 0 deleted, 0 moved, 0 adopted; 0 media uploaded.');
    for (const [folder, emulator, count] of [['acme', first, 2], ['bolt', second, 1]] as const) {
      const state = JSON.parse(await readFile(join(dir, `clients/${folder}/.postsync/state.json`), 'utf8'));
      expect(Object.keys(state.targets)).toEqual([`${emulator().baseUrl}#demo`]);
      expect(Object.keys(state.targets[`${emulator().baseUrl}#demo`].posts)).toHaveLength(count);
    }
    const remote = await first().api('GET', '/posts?limit=100');
    expect(remote.body.data.items.map((post: { content: string }) => post.content).sort()).toEqual(['Acme news', 'Hello from Acme']);

    // Once the broken calendar is fixed, the plan of all three converges to "no changes".
    await writeFile(join(dir, 'clients/crux/postsync.yaml'), config(second().baseUrl));
    expect((await run(dir, 'apply', '--all', '--yes')).code).toBe(0);
    const again = await run(dir, 'plan', '--all', '--detailed-exitcode');
    expect(again.stdout).toContain('3 calendars: none failed.');
    expect(again.code).toBe(0);
  });

  it('refuses flags that make no sense across calendars, and a folder without any', async () => {
    const dir = await agency();
    const json = await run(dir, 'plan', '--all', '--json');
    expect(json.code).toBe(1);
    expect(json.stderr).toContain('--all runs one plan per calendar and cannot be combined with --json');
    const none = await run(await testdir({ 'notes.md': 'x' }), 'apply', '--all', '--yes');
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('no postsync.yaml below');
  });

  it('combines exit codes: any failure is 1, else changes are 2', () => {
    expect(combinedExitCode([0, 0])).toBe(0);
    expect(combinedExitCode([0, 2])).toBe(2);
    expect(combinedExitCode([2, 1, 0])).toBe(1);
    expect(combinedExitCode([3, 2])).toBe(1);
  });
});

describe('postsync calendars', () => {
  it('finds every postsync.yaml below the folder, names its secrets, and keeps those a change touched', async () => {
    const dir = await agency();
    expect((await findCalendars(dir)).map((calendar) => calendar.folder)).toEqual(['clients/acme', 'clients/bolt', 'clients/crux']);
    expect(calendarAt('clients/acme-co')).toEqual({ folder: 'clients/acme-co', apiUrlSecret: 'POSTSYNC_API_URL_CLIENTS_ACME_CO', apiKeySecret: 'POSTSYNC_API_KEY_CLIENTS_ACME_CO', readKeySecret: 'POSTSYNC_API_READ_KEY_CLIENTS_ACME_CO', artifactName: 'postsync-calendar-clients-acme-co', stateArtifactName: 'postsync-state-clients-acme-co' });
    expect(calendarAt('.').artifactName).toBe('postsync-calendar');
    expect(calendarAt('.').stateArtifactName).toBe('postsync-state');
    expect(secretSuffix('.')).toBe('');
    const calendars = [calendarAt('.'), calendarAt('clients/acme'), calendarAt('clients/bolt')];
    const folders = (byCalendar: Map<{ folder: string }, string[]>) => Object.fromEntries([...byCalendar].map(([calendar, paths]) => [calendar.folder, paths]));
    expect(folders(pathsByCalendar(calendars, ['clients/acme/posts/a.md', 'clients/acme/media/x.png']))).toEqual({ 'clients/acme': ['posts/a.md', 'media/x.png'] });
    expect(folders(pathsByCalendar(calendars, ['posts/root.md', 'clients/bolt/postsync.yaml']))).toEqual({ '.': ['posts/root.md'], 'clients/bolt': ['postsync.yaml'] });
    expect(folders(pathsByCalendar(calendars.slice(1), ['README.md']))).toEqual({});

    const listed = await runCli(['calendars', '--changed', '-', '--json'], { cwd: dir, input: 'clients/bolt/posts/hello.md\nREADME.md\n' });
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout).calendars).toEqual([calendarAt('clients/bolt')]);
  });

  it('refuses a calendar folder whose name could start a workflow command (a line break, `:`, `%`), naming it escaped', async () => {
    const hostile = 'clients/x\n::error::pwned';
    const dir = await testdir({ 'clients/acme/postsync.yaml': 'timezone: UTC\n', [`${hostile}/postsync.yaml`]: 'timezone: UTC\n', 'clients/100%/postsync.yaml': 'timezone: UTC\n' });
    const listed = await runCli(['calendars', '--json'], { cwd: dir });
    expect(listed.code).toBe(1);
    expect(listed.stdout).toBe('');
    expect(listed.stderr).toContain('"clients/x\\n::error::pwned"');
    expect(listed.stderr).toContain('clients/100%');
    expect(listed.stderr).toContain('letters, digits, space and . _ - /');
    expect(listed.stderr).not.toMatch(/^::/m);
    await expect(findCalendars(dir)).rejects.toThrow(/calendar folder/);
    // Letters of any script, digits, space and `._-` stay allowed.
    const plain = await testdir({ 'clients/Ümlaut 東京_v1.2-x/postsync.yaml': 'timezone: UTC\n' });
    expect((await findCalendars(plain)).map((calendar) => calendar.folder)).toEqual(['clients/Ümlaut 東京_v1.2-x']);
  });
});
