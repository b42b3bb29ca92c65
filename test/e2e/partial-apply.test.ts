import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, DEMO_API_KEY, type RequestLogEntry } from '../../src/emulator/index.js';
import { runCli } from '../helpers/cli.js';
import { useEmulator } from '../helpers/emulator.js';
import { RefusingProxy, type RefuseRule } from '../helpers/refusing-proxy.js';
import { demoProject, post } from './project.js';

const emulator = useEmulator();
beforeEach(() => emulator().reset());

/** A schedule surely in the future (in the project's time zone). */
const NEXT_YEAR = `${new Date().getUTCFullYear() + 1}-06-01 09:00`;
const env = { POSTSYNC_API_KEY: DEMO_API_KEY };
/** Several CLI runs per test: generous, it only catches a hung CLI. */
const TIMEOUT_MS = 120_000;

function cli(dir: string, args: string[], apiUrl = emulator().baseUrl) {
  return runCli(['--api-url', apiUrl, ...args], { cwd: dir, env });
}

async function remoteContents(): Promise<string[]> {
  const items = (await emulator().api('GET', '/posts?limit=100')).body.data.items as { content: string }[];
  return items.map((item) => item.content).sort();
}

/** Requests that change something: any API method but GET, and storage uploads. */
async function writes(): Promise<RequestLogEntry[]> {
  return (await emulator().requestLog()).filter((entry) => entry.method !== 'GET' && entry.method !== 'HEAD');
}

/** A team's calendar on an ordinary day: two posts ready, two unfinished drafts, a typo, a post scheduled before its image is in. */
function teamCalendar(): Promise<string> {
  return demoProject({
    'launch.md': post({ body: 'Launch day!', scheduledAt: NEXT_YEAR }),
    'news.md': post({ body: 'A draft that is ready.' }),
    'photo-idea.md': '---\ntargets: [photo]\n---\nPhoto TBD.\n',
    'video-idea.md': '---\ntargets: [video]\n---\nA video, some day.\n',
    'broken.md': '---\ntargets: [photo\nmedia: [media/cover.png]\n---\nA typo in the front-matter.\n',
    'tomorrow.md': `---\nscheduledAt: "${NEXT_YEAR}"\ntargets: [photo]\n---\nScheduled before its image is in.\n`,
  });
}

describe('a bad file blocks only its own post', () => {
  it('applies the 4 posts it can (incomplete drafts included), sends nothing for the broken file and the scheduled post without its image, and exits 1', async () => {
    const dir = await teamCalendar();
    const plan = await cli(dir, ['plan']);
    expect(plan.code, plan.stdout + plan.stderr).toBe(1);
    expect(plan.stdout).toMatch(/! blocked broken\s+\(posts\/broken\.md\)/);
    expect(plan.stdout).toMatch(/! blocked tomorrow\s+\(posts\/tomorrow\.md\)/);
    expect(plan.stdout).not.toMatch(/\+ create\s+(broken|tomorrow)\b/);
    expect(plan.stdout).toContain('Plan: 4 to create, 0 to update, 0 to delete. 2 blocked (invalid files). 2 drafts not ready to schedule yet.');

    await emulator().clearLog();
    const applied = await cli(dir, ['apply', '--yes']);
    expect(applied.code, applied.stdout + applied.stderr).toBe(1);
    expect(applied.stdout).toContain('Applied 4, blocked 2 (invalid files): 4 created, 0 updated, 0 deleted, 0 moved, 0 adopted; 1 media uploaded. Fix the errors above, then apply again.');
    expect(await remoteContents()).toEqual(['A draft that is ready.', 'A video, some day.', 'Launch day!', 'Photo TBD.']);
    const creates = (await writes()).filter((entry) => entry.method === 'POST' && entry.path === '/public/v1/posts');
    expect(creates).toHaveLength(4);

    const report = JSON.parse((await cli(dir, ['plan', '--json'])).stdout) as { summary: Record<string, number>; changes: { action: string; key: string; reasons: string[]; diagnostics?: { severity: string; file: string; message: string }[] }[] };
    expect(report.summary).toMatchObject({ create: 0, blocked: 2, blockedByErrors: 2, draftsNotReady: 2 });
    const blocked = report.changes.filter((change) => change.action === 'blocked');
    expect(blocked.map((change) => change.key)).toEqual(['broken', 'tomorrow']);
    expect(blocked[1]!.reasons[0]).toMatch(/^posts\/tomorrow\.md has an error: .*at least 1/);
    expect(blocked[1]!.diagnostics).toEqual([expect.objectContaining({ severity: 'error', file: 'posts/tomorrow.md', readiness: true })]);
    expect(blocked[0]!.diagnostics?.every((d) => d.file === 'posts/broken.md' && d.severity === 'error')).toBe(true);
  }, TIMEOUT_MS);

  it('with --strict, applies nothing while any file has an error', async () => {
    const dir = await teamCalendar();
    await emulator().clearLog();
    const applied = await cli(dir, ['apply', '--yes', '--strict']);
    expect(applied.code, applied.stdout + applied.stderr).toBe(1);
    expect(applied.stdout).toContain('Nothing was applied (--strict): fix the errors above first.');
    expect(await writes()).toEqual([]);
    expect(await remoteContents()).toEqual([]);
  }, TIMEOUT_MS);

  it('never updates or deletes an owned post whose file becomes broken, even with --prune', async () => {
    const dir = await demoProject({ 'launch.md': post({ body: 'Launch day!' }), 'news.md': post({ body: 'News.' }) });
    expect((await cli(dir, ['apply', '--yes'])).code).toBe(0);
    const file = join(dir, 'posts/launch.md');
    // Edited and broken at once: the new text must not go out, and the post must not look deleted.
    await writeFile(file, (await readFile(file, 'utf8')).replace('targets: [photo]', 'targets: [photo').replace('Launch day!', 'Launch day, edited'));
    await writeFile(join(dir, 'posts/news.md'), post({ body: 'News, edited.' }));

    const plan = await cli(dir, ['plan', '--prune']);
    expect(plan.stdout).toMatch(/! blocked launch\s+\(posts\/launch\.md\)/);
    expect(plan.stdout).not.toMatch(/- delete/);
    await emulator().clearLog();
    const applied = await cli(dir, ['apply', '--yes', '--prune']);
    expect(applied.code, applied.stdout + applied.stderr).toBe(1);
    expect(applied.stdout).toContain('Applied 1, blocked 1 (invalid files): 0 created, 1 updated, 0 deleted');
    expect((await writes()).map((entry) => `${entry.method} ${entry.path.replace(/[0-9a-f-]{36}/, 'ID')}`)).toEqual(['PATCH /public/v1/posts/ID']);
    expect(await remoteContents()).toEqual(['Launch day!', 'News, edited.']);

    // Renamed and broken in one go: its key cannot be read, so the post whose file is gone may be
    // this one; it is not deleted, even with --prune.
    await rm(file);
    await writeFile(join(dir, 'posts/launch-renamed.md'), '---\ntargets: [photo\n---\nLaunch day!\n');
    const renamed = await cli(dir, ['plan', '--prune', '--json']);
    const changes = (JSON.parse(renamed.stdout) as { changes: { action: string; key: string }[] }).changes;
    expect(changes.filter((change) => change.action !== 'noop').map((change) => `${change.action} ${change.key}`)).toEqual(['blocked launch', 'blocked launch-renamed']);
    await emulator().clearLog();
    expect((await cli(dir, ['apply', '--yes', '--prune'])).code).toBe(1);
    expect(await writes()).toEqual([]);
    expect(await remoteContents()).toEqual(['Launch day!', 'News, edited.']);
  }, TIMEOUT_MS);
});

describe('a scheduled post whose file breaks, as each view tells it', () => {
  it('is left as it is: neither the markdown plan, the JSON nor the calendar card says it goes to draft', async () => {
    const dir = await demoProject({ 'launch.md': post({ body: 'Launch day!', scheduledAt: NEXT_YEAR }) });
    expect((await cli(dir, ['apply', '--yes'])).code).toBe(0);
    // A house rule the applied post now breaks (an error of its file): the post is held as it is.
    await writeFile(join(dir, 'postsync.yaml'), `${await readFile(join(dir, 'postsync.yaml'), 'utf8')}rules:\n  wording: { bannedWords: [launch] }\n`);

    const human = await cli(dir, ['plan']);
    expect(human.stdout).toContain('the post is left as it is (not unscheduled) until it is fixed');
    const markdown = await cli(dir, ['plan', '--markdown']);
    expect(markdown.stdout).toMatch(/\| ⛔ \| blocked \| `launch` \|/);
    expect(markdown.stdout).not.toContain('none (draft)');
    const json = JSON.parse((await cli(dir, ['plan', '--json'])).stdout) as { changes: { action: string; fields?: unknown[] }[] };
    expect(json.changes).toMatchObject([{ action: 'blocked' }]);
    expect(json.changes[0]!.fields ?? []).toEqual([]);
    expect((await cli(dir, ['calendar', '--out', 'page'])).code).toBe(0);
    const page = await readFile(join(dir, 'page/index.html'), 'utf8');
    expect(page).toContain('the post is left as it is (not unscheduled) until it is fixed');
    expect(page).not.toContain('none (draft)');
  }, TIMEOUT_MS);
});

describe('against a service that refuses an incomplete draft', () => {
  it('fails only that post, with the service\'s message, applies the rest, and creates it afresh once the file is fixed', async () => {
    // A stricter service than the emulator: a vidA post needs its title even as a draft.
    const proxy = await RefusingProxy.start(emulator().baseUrl);
    const untitledCreate: RefuseRule = ({ method, path, body }) => {
      if (method !== 'POST' || path !== '/posts') return false;
      const targets = (JSON.parse(body) as { targets?: { socialAccountId: string; options?: Record<string, unknown> }[] }).targets ?? [];
      return targets.some((target) => target.socialAccountId === DEMO_ACCOUNTS.video && target.options?.vidATitle === undefined);
    };
    proxy.refuse(untitledCreate, { status: 400, code: 'validation_failed', message: ['targets[0].options.vidATitle is required for vidA'] });
    try {
      const dir = await demoProject({ 'photo.md': post({ body: 'Fine.' }), 'video.md': post({ body: 'Untitled.', targets: '[video]', media: '[media/teaser.mp4]' }) });
      const applied = await cli(dir, ['apply', '--yes'], proxy.baseUrl);
      expect(applied.code, applied.stdout + applied.stderr).toBe(1);
      expect(applied.stdout + applied.stderr).toContain('vidATitle is required for vidA');
      expect(applied.stdout).toContain('Apply complete: 1 created, 0 updated, 0 deleted, 0 moved, 0 adopted; 2 media uploaded. 1 failed');
      expect(proxy.refused).toHaveLength(1);
      expect(await remoteContents()).toEqual(['Fine.']);

      // Nothing was created, so no interrupted create is left behind: the next plan creates the file as it is then.
      const state = JSON.parse(await readFile(join(dir, '.postsync/state.json'), 'utf8')) as { targets: Record<string, { pending: object }> };
      expect(Object.values(state.targets).map((section) => section.pending)).toEqual([{}]);
      await writeFile(join(dir, 'posts/video.md'), post({ body: 'Titled.', targets: '[{ account: video, options: { vidATitle: "Teaser" } }]', media: '[media/teaser.mp4]' }));
      const plan = await cli(dir, ['plan'], proxy.baseUrl);
      expect(plan.stdout).toMatch(/\+ create\s+video\s+\(posts\/video\.md\)\n\s+new file/);
      const again = await cli(dir, ['apply', '--yes'], proxy.baseUrl);
      expect(again.code, again.stdout + again.stderr).toBe(0);
      expect(await remoteContents()).toEqual(['Fine.', 'Titled.']);
    } finally {
      await proxy.close();
    }
  }, TIMEOUT_MS);
});

describe('a create refused as too large (413, from a gateway before the service, without an Error envelope)', () => {
  it('leaves nothing pending, so once the file is shortened the next apply creates it from the file as it is then', async () => {
    const proxy = await RefusingProxy.start(emulator().baseUrl);
    proxy.refuse(({ method, path, body }) => method === 'POST' && path === '/posts' && body.includes('Far too long'), { status: 413, code: '', bare: '<html><body>413 Request Entity Too Large</body></html>' });
    try {
      const dir = await demoProject({ 'photo.md': post({ body: 'Fine.' }), 'long.md': post({ body: 'Far too long.' }) });
      const applied = await cli(dir, ['apply', '--yes'], proxy.baseUrl);
      expect(applied.code, applied.stdout + applied.stderr).toBe(1);
      expect(applied.stdout + applied.stderr).toContain('100 KB');
      expect(proxy.refused).toEqual(['POST /posts']);
      const state = JSON.parse(await readFile(join(dir, '.postsync/state.json'), 'utf8')) as { targets: Record<string, { pending: object }> };
      expect(Object.values(state.targets).map((section) => section.pending)).toEqual([{}]);

      await writeFile(join(dir, 'posts/long.md'), post({ body: 'Short now.' }));
      const again = await cli(dir, ['apply', '--yes'], proxy.baseUrl);
      expect(again.code, again.stdout + again.stderr).toBe(0);
      expect(proxy.refused).toEqual(['POST /posts']);
      expect(await remoteContents()).toEqual(['Fine.', 'Short now.']);
      expect((await cli(dir, ['plan'], proxy.baseUrl)).stdout).toContain('No changes.');
    } finally {
      await proxy.close();
    }
  }, TIMEOUT_MS);
});
