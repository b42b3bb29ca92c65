import { appendFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_API_KEY } from '../../src/emulator/index.js';
import { runCli } from '../helpers/cli.js';
import { useEmulator } from '../helpers/emulator.js';
import { demoProject, post } from './project.js';

const emulator = useEmulator();

interface RemotePost {
  id: string;
  content: string;
  scheduledAt: string | null;
}

/** A weekly repeat of `count` on Mondays at 09:00 Berlin time, from 2031-01-06, with a variant in turn. */
function repeat(count: number, occurrences = ''): string {
  return [
    '---',
    'scheduledAt: 2031-01-06 09:00',
    'targets: [photo]',
    'media: [media/cover.png]',
    'repeat: { every: week, count: ' + String(count) + ' }',
    'variants: ["{{ campaign.name }}, week of {{ date }}."]',
    ...(occurrences === '' ? [] : ['occurrences:', occurrences]),
    '---',
    'The {{ campaign.name }} is back: {{ campaign.url }}',
    '',
  ].join('\n');
}

const POLICIES = ['vars:', '  campaign: { name: Winter blend, url: "https://acme.coffee/winter" }', ''].join('\n');

async function project(posts: Record<string, string>, policies = POLICIES): Promise<string> {
  const dir = await demoProject(posts);
  await appendFile(join(dir, 'postsync.yaml'), policies);
  return dir;
}

describe('repeats, slots and house rules against the API', () => {
  it('a repeat of 6 gives 6 remote posts with their UTM parameters, the next plan shows no change, and editing one occurrence sends one PATCH', async () => {
    const api = emulator();
    await api.reset();
    const dir = await project({ 'roast.md': repeat(6) }, `${POLICIES}rules:\n  links: { utm: { source: "{platform}", medium: social, append: true } }\n`);
    const cli = (...args: string[]) => runCli(['--api-url', api.baseUrl, ...args], { cwd: dir, env: { POSTSYNC_API_KEY: DEMO_API_KEY } });
    const applied = await cli('apply', '--yes');
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain('Apply complete: 6 created');
    const remote = (await api.api('GET', '/posts?limit=100')).body.data.items as RemotePost[];
    const linked = 'The Winter blend is back: https://acme.coffee/winter?utm_source=photoC&utm_medium=social';
    expect(remote.map((p) => [p.scheduledAt, p.content]).sort()).toEqual([
      ['2031-01-06T08:00:00.000Z', linked],
      ['2031-01-13T08:00:00.000Z', 'Winter blend, week of 2031-01-13.'],
      ['2031-01-20T08:00:00.000Z', linked],
      ['2031-01-27T08:00:00.000Z', 'Winter blend, week of 2031-01-27.'],
      ['2031-02-03T08:00:00.000Z', linked],
      ['2031-02-10T08:00:00.000Z', 'Winter blend, week of 2031-02-10.'],
    ]);
    const again = await cli('plan', '--detailed-exitcode');
    expect([again.code, again.stdout]).toEqual([0, expect.stringContaining('No changes.')]);

    await writeFile(join(dir, 'posts/roast.md'), repeat(6, '  2031-01-20: { content: "Special edition!" }'));
    await api.clearLog();
    const edited = await cli('apply', '--yes');
    expect(edited.stdout).toContain('Apply complete: 0 created, 1 updated');
    const writes = (await api.requestLog()).filter((entry) => entry.method !== 'GET');
    expect(writes.map((entry) => entry.method)).toEqual(['PATCH']);
    expect(((await api.api('GET', '/posts?limit=100')).body.data.items as RemotePost[]).filter((p) => p.content === 'Special edition!').map((p) => p.scheduledAt)).toEqual(['2031-01-20T08:00:00.000Z']);
  });

  it('never touches a published occurrence: an edit or a skip of it is blocked, the others go on', async () => {
    const api = emulator();
    await api.reset();
    const dir = await project({ 'roast.md': repeat(2) });
    const cli = (...args: string[]) => runCli(['--api-url', api.baseUrl, ...args], { cwd: dir, env: { POSTSYNC_API_KEY: DEMO_API_KEY } });
    expect((await cli('apply', '--yes')).code).toBe(0);
    await api.setClock(new Date('2031-01-06T09:00:00Z'));
    const changes = async (...args: string[]) => (JSON.parse((await cli('plan', '--json', ...args)).stdout) as { changes: { action: string; key: string; reasons: string[] }[] }).changes.map((change) => [change.action, change.key, change.reasons]);
    const edited = repeat(2).replace('is back', 'is here');
    await writeFile(join(dir, 'posts/roast.md'), edited);
    expect(await changes()).toEqual([
      ['blocked', 'roast@2031-01-06', ['post is published; published posts are never edited']],
      ['noop', 'roast@2031-01-13', ['up to date']],
    ]);
    await writeFile(join(dir, 'posts/roast.md'), edited.replace('count: 2 }', 'count: 2, skip: [2031-01-06] }'));
    expect(await changes('--prune')).toEqual([
      ['create', 'roast@2031-01-20', ['new occurrence (2031-01-20)']],
      ['noop', 'roast@2031-01-06', ['2031-01-06 is no longer an occurrence of the repeat in posts/roast.md: the post is published and stays as it is (published posts are never deleted)']],
      ['noop', 'roast@2031-01-13', ['up to date']],
    ]);
  });

  it('count 6 → 4 returns the 2 surplus occurrences to draft without --prune and deletes them with it', async () => {
    const api = emulator();
    await api.reset();
    const dir = await project({ 'roast.md': repeat(6) });
    const cli = (...args: string[]) => runCli(['--api-url', api.baseUrl, ...args], { cwd: dir, env: { POSTSYNC_API_KEY: DEMO_API_KEY } });
    expect((await cli('apply', '--yes')).code).toBe(0);
    await writeFile(join(dir, 'posts/roast.md'), repeat(4));
    const skipped = await cli('apply', '--yes');
    expect(skipped.stdout).toContain('2031-02-03 is no longer an occurrence of the repeat in posts/roast.md: it goes back to draft on the remote (--prune deletes it)');
    expect(skipped.stdout).toContain('2 unscheduled');
    const drafts = ((await api.api('GET', '/posts?limit=100')).body.data.items as RemotePost[]).filter((p) => p.scheduledAt === null);
    expect(drafts).toHaveLength(2);
    const pruned = await cli('apply', '--yes', '--prune');
    expect(pruned.stdout).toContain('0 created, 0 updated, 2 deleted');
    expect(pruned.stdout).toContain('2031-02-03 is no longer an occurrence of the repeat in posts/roast.md');
    const left = (await api.api('GET', '/posts?limit=100')).body.data.items as RemotePost[];
    expect(left.map((p) => p.scheduledAt).sort()).toEqual(['2031-01-06T08:00:00.000Z', '2031-01-13T08:00:00.000Z', '2031-01-20T08:00:00.000Z', '2031-01-27T08:00:00.000Z']);
    const state = JSON.parse(await readFile(join(dir, '.postsync/state.json'), 'utf8')) as { targets: Record<string, { posts: Record<string, unknown> }> };
    expect(Object.keys(Object.values(state.targets)[0]!.posts).sort()).toEqual(['roast@2031-01-06', 'roast@2031-01-13', 'roast@2031-01-20', 'roast@2031-01-27']);
  });

  it('a quiet-hours error blocks only its own post, at its file, line and column; as a warning it blocks nothing', async () => {
    const api = emulator();
    await api.reset();
    const files = { 'fine.md': post({ body: 'At ten.', scheduledAt: '2031-03-04 10:00' }), 'late.md': post({ body: 'At half past eleven.', scheduledAt: '2031-03-04 23:30' }) };
    const dir = await project(files, ['rules:', '  nights:', '    quietHours: { from: "22:00", to: "07:00" }', ''].join('\n'));
    const cli = (...args: string[]) => runCli(['--api-url', api.baseUrl, ...args], { cwd: dir, env: { POSTSYNC_API_KEY: DEMO_API_KEY } });
    const plan = JSON.parse((await cli('plan', '--json')).stdout) as { changes: { action: string; key: string; reason: string; reasons: string[] }[]; diagnostics: Record<string, unknown>[] };
    expect(plan.changes.map((change) => [change.action, change.key])).toEqual([['create', 'fine'], ['blocked', 'late']]);
    // Held by the rule, as the docs name it, not an invalid file: the file is fine, the time is not.
    expect(plan.changes[1]).toMatchObject({ reason: 'held-by-rule', reasons: ['held by rule `nights`: 23:30 is in the quiet hours 22:00–07:00 (photo)', 'the post is not created while the rule holds it'] });
    expect((await cli('plan')).stdout).toContain('Plan: 1 to create, 0 to update, 0 to delete. 1 blocked (held by a rule).');
    expect(plan.diagnostics).toEqual([
      {
        severity: 'error',
        code: 'rule-quiet-hours',
        rule: 'nights',
        key: 'late',
        file: 'posts/late.md',
        line: 2,
        column: 14,
        message: 'rule `nights`: 23:30 is in the quiet hours 22:00–07:00 (photo)',
        expected: 'a time from 07:00 to 22:00',
        found: 'Tue 4 Mar 2031, 23:30 (+01:00)',
        hint: 'Move it to 07:00 or later (before 22:00), or write `scheduledAt: next-slot`.',
      },
    ]);
    const applied = await cli('apply', '--yes');
    expect(applied.code).toBe(1);
    expect(applied.stdout).toContain('Applied 1, blocked 1 (held by a rule): 1 created');
    const remote = (await api.api('GET', '/posts?limit=100')).body.data.items as RemotePost[];
    expect(remote.map((p) => p.content)).toEqual(['At ten.']);

    await writeFile(join(dir, 'postsync.yaml'), (await readFile(join(dir, 'postsync.yaml'), 'utf8')).replace('quietHours:', 'severity: warning\n    quietHours:'));
    const warned = await cli('apply', '--yes');
    expect(warned.stdout).toContain('warning rule `nights`: 23:30 is in the quiet hours');
    expect(((await api.api('GET', '/posts?limit=100')).body.data.items as RemotePost[]).map((p) => p.content).sort()).toEqual(['At half past eleven.', 'At ten.']);
  });

  it('gives next-slot posts their slots, records them, and never moves an applied one for a new post', async () => {
    const api = emulator();
    await api.reset();
    const slotted = (body: string) => ['---', 'scheduledAt: next-slot', 'targets: [photo]', 'media: [media/cover.png]', '---', body, ''].join('\n');
    const dir = await project({ 'b.md': slotted('First in.') }, ['slots:', '  photo: ["Mon 09:00", "Thu 17:30"]', 'rules:', '  spacing: { minGap: 2h }', ''].join('\n'));
    const cli = (...args: string[]) => runCli(['--api-url', api.baseUrl, ...args], { cwd: dir, env: { POSTSYNC_API_KEY: DEMO_API_KEY } });
    const first = await cli('apply', '--yes');
    expect(first.stdout).toMatch(/time from slot (Mon 09:00|Thu 17:30): (Mon|Thu) \d{1,2} \w{3} \d{4}, (09:00|17:30) \(\+0[12]:00\), the earliest free one/);
    const timeOf = async (content: string) => ((await api.api('GET', '/posts?limit=100')).body.data.items as RemotePost[]).find((p) => p.content === content)!.scheduledAt;
    const applied = await timeOf('First in.');
    const state = JSON.parse(await readFile(join(dir, '.postsync/state.json'), 'utf8')) as { targets: Record<string, { posts: Record<string, { slotAt?: string }> }> };
    expect(Object.values(state.targets)[0]!.posts.b!.slotAt).toBe(applied);
    expect((await cli('plan', '--detailed-exitcode')).code).toBe(0);

    // `a` comes first in key order, yet `b` keeps its slot: `a` takes the next free one.
    await writeFile(join(dir, 'posts/a.md'), slotted('Second in.'));
    const second = await cli('apply', '--yes');
    expect(second.stdout).toContain('Apply complete: 1 created, 0 updated');
    expect(await timeOf('First in.')).toBe(applied);
    expect(Date.parse((await timeOf('Second in.'))!)).toBeGreaterThan(Date.parse(applied!));
    expect((await cli('plan', '--detailed-exitcode')).code).toBe(0);
  });
});
