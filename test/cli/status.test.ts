import { beforeAll, describe, expect, it } from 'vitest';
import { startTestEmulator } from '../helpers/emulator.js';
import { testdir } from '../helpers/testdir.js';
import { ACCOUNTS, hoursFromNow, onlySection, postFile, projectFiles, readStateFile, reportingFixture, requireBuild, runCli, runJson, writeStateFile } from './reporting-support.js';

beforeAll(requireBuild);

describe('postsync status', () => {
  it('shows each managed post by file with per-account results, gone posts and interrupted work, reading only the posts it owns', async () => {
    const emulator = await startTestEmulator({ fixture: reportingFixture() });
    try {
      const scheduledAt = hoursFromNow(1);
      const dir = await testdir(
        projectFiles({
          'posts/launch.md': postFile({ text: 'Launch day!', targets: ['ok', 'slow', 'broken'], scheduledAt, media: true }),
          'posts/idea.md': postFile({ text: 'An idea, still a draft' }),
          'posts/old.md': postFile({ text: 'Deleted by someone in the web app' }),
        }),
      );
      const api = ['--api-url', emulator.baseUrl];
      const applied = await runCli([...api, 'apply', '--yes'], { cwd: dir });
      expect(applied.code, applied.stderr + applied.stdout).toBe(0);

      const state = await readStateFile(dir);
      const section = onlySection(state);
      expect((await emulator.api('DELETE', `/posts/${section.posts.old!.postId}`)).status).toBe(200);
      // An apply that stopped half-way leaves these behind.
      section.pending['next-post'] = {
        file: 'posts/next-post.md',
        idempotencyKey: 'postsync-test-key',
        payload: { content: 'Next', targets: [], mediaIds: [] },
        shapeHash: 'a'.repeat(64),
        startedAt: '2026-01-02T03:04:05.000Z',
      };
      section.uploads['b'.repeat(64)] = { mediaId: '55555555-5555-4555-8555-555555555555', partSizeBytes: 8 * 1024 * 1024, partCount: 7, startedAt: '2026-01-02T03:04:05.000Z' };
      await writeStateFile(dir, state);
      // Past the schedule, but before the throttled account's retry (15 minutes later).
      await emulator.advanceClock(3600 + 60);

      await emulator.clearLog();
      const report = await runJson(['status', ...api], { cwd: dir });
      const requests = (await emulator.requestLog()).map((entry) => `${entry.method} ${entry.path}${entry.query ? `?${entry.query}` : ''}`);
      // As a plan reads: the drafts and the scheduled posts listed, the other owned posts by id (launch is publishing, old is gone).
      expect(requests.filter((request) => request.startsWith('GET /public/v1/posts')).sort()).toEqual([
        `GET /public/v1/posts/${section.posts.launch!.postId}`,
        `GET /public/v1/posts/${section.posts.old!.postId}`,
        'GET /public/v1/posts?status=draft&limit=100&sort=oldest',
        'GET /public/v1/posts?status=scheduled&limit=100&sort=oldest',
      ].sort());

      expect(report.posts.map((post: any) => [post.file, post.remote, post.status])).toEqual([
        ['posts/idea.md', 'present', 'draft'],
        ['posts/launch.md', 'present', 'publishing'],
        ['posts/old.md', 'gone', null],
      ]);
      const launch = report.posts[1];
      expect(launch.key).toBe('launch');
      expect(launch.scheduledAt).toBe(scheduledAt);
      const byAlias = Object.fromEntries(launch.targets.map((target: any) => [target.alias, target]));
      expect(byAlias.ok).toMatchObject({ socialAccountId: ACCOUNTS.ok, status: 'published', publishedAt: scheduledAt, error: null });
      expect(byAlias.ok.externalPostId).toMatch(/^photoC_/);
      expect(byAlias.slow).toMatchObject({ status: 'waiting', externalPostId: null });
      expect(byAlias.slow.waitReason).toContain('rate limit');
      expect(Date.parse(byAlias.slow.nextAttemptAt)).toBe(Date.parse(scheduledAt) + 15 * 60_000);
      expect(byAlias.broken.status).toBe('failed');
      expect(byAlias.broken.error).toContain('publishing failed');

      expect(report.pending).toEqual([{ key: 'next-post', file: 'posts/next-post.md', startedAt: '2026-01-02T03:04:05.000Z' }]);
      expect(report.uploads).toEqual([{ sha256: 'b'.repeat(64), mediaId: '55555555-5555-4555-8555-555555555555', partCount: 7, startedAt: '2026-01-02T03:04:05.000Z' }]);

      const human = await runCli(['status', ...api], { cwd: dir });
      expect(human.code).toBe(0);
      expect(human.stdout).toMatch(/^Target: http:\/\/127\.0\.0\.1:\d+\/public\/v1 \(project demo\)/);
      expect(human.stdout).toContain('posts/old.md');
      expect(human.stdout).toMatch(/gone: the post no longer exists on the remote/);
      expect(human.stdout).toMatch(/slow\s+photoC\s+waiting\s+.*next attempt/);
      expect(human.stdout).toMatch(/broken\s+photoC\s+failed\s+.*publishing failed/);
      expect(human.stdout).toMatch(/Interrupted creates.*\n  next-post  posts\/next-post\.md, started Fri 2 Jan 2026, 03:04:05 \(\+00:00\)/);
      expect(human.stdout).toMatch(/Unfinished media uploads.*\n  sha256 bbbbbbbbbbbb…  media 55555555-5555-4555-8555-555555555555, 7 parts/);
      expect(human.stdout).toContain('3 managed posts: 1 draft, 1 gone, 1 publishing.');
    } finally {
      await emulator.close();
    }
  });

  it('says so when nothing is managed on this target, names the targets that have posts, and lists nothing', async () => {
    const emulator = await startTestEmulator({ fixture: reportingFixture() });
    try {
      // Posts applied to the embedded local API only.
      const local = { apiUrl: 'local', projectId: 'demo', media: {}, pending: {}, uploads: {}, posts: { idea: { postId: 'p-1', file: 'posts/idea.md', appliedHash: 'a'.repeat(64), remoteUpdatedAt: '2026-01-01T00:00:00.000Z', appliedAt: '2026-01-01T00:00:00.000Z' } } };
      const dir = await testdir(projectFiles({ '.postsync/state.json': JSON.stringify({ version: 1, targets: { 'local:demo': local } }) }));
      await emulator.clearLog();
      const result = await runCli(['--api-url', emulator.baseUrl, 'status'], { cwd: dir });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toContain('No managed posts in the state for this target yet.');
      expect(result.stdout).toContain('The state also has posts for other targets: local:demo (1); pass --api-url, or --local for the embedded API, to see those.');
      expect((await emulator.requestLog()).map((entry) => entry.path)).not.toContain('/public/v1/posts');
    } finally {
      await emulator.close();
    }
  });
});
