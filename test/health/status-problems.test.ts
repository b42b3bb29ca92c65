import { beforeAll, describe, expect, it } from 'vitest';
import { liveShape, mediaIdIndex } from '../../src/plan/live-shape.js';
import { shapeHash } from '../../src/content/shape-hash.js';
import { startTestEmulator } from '../helpers/emulator.js';
import { testdir } from '../helpers/testdir.js';
import { ACCOUNTS, hoursFromNow, onlySection, postFile, projectFiles, readStateFile, reportingFixture, requireBuild, runCli, runJson, writeStateFile } from '../cli/reporting-support.js';

beforeAll(requireBuild);

describe('postsync status --problems', () => {
  it('shows only drifted, failed, partly published and blocked posts, each with what is wrong', async () => {
    const emulator = await startTestEmulator({ fixture: reportingFixture() });
    try {
      const scheduledAt = hoursFromNow(1);
      const dir = await testdir(
        projectFiles({
          'posts/fine.md': postFile({ text: 'All good', targets: ['ok'], scheduledAt, media: true }),
          'posts/broken.md': postFile({ text: 'Will fail', targets: ['broken'], scheduledAt, media: true }),
          'posts/mixed.md': postFile({ text: 'Half and half', targets: ['ok', 'broken'], scheduledAt, media: true }),
          'posts/edited.md': postFile({ text: 'Edited in the web app later' }),
          'posts/gone.md': postFile({ text: 'Deleted in the web app later' }),
          'posts/idea.md': postFile({ text: 'Untouched draft' }),
        }),
      );
      const api = ['--api-url', emulator.baseUrl];
      expect((await runCli([...api, 'apply', '--yes'], { cwd: dir })).code).toBe(0);
      const state = await readStateFile(dir);
      const section = onlySection(state);
      await emulator.api('PATCH', `/posts/${section.posts.edited!.postId}`, { body: { content: 'Changed by hand' } });
      await emulator.api('DELETE', `/posts/${section.posts.gone!.postId}`);
      // A draft for an account that has since become unavailable, owned by the state.
      const offline = (await emulator.api('POST', '/posts', { body: { content: 'Waiting for the account', targets: [{ socialAccountId: ACCOUNTS.off }], mediaIds: [] }, headers: { 'Idempotency-Key': 'offline-1' } })).body.data;
      section.posts.offline = { postId: offline.id, file: 'posts/offline.md', appliedHash: shapeHash(liveShape(offline, mediaIdIndex(section))), remoteUpdatedAt: offline.updatedAt, appliedAt: offline.updatedAt };
      await writeStateFile(dir, state);
      await emulator.advanceClock(3600 + 60);

      const report = await runJson(['status', ...api, '--problems'], { cwd: dir });
      const byFile = Object.fromEntries(report.posts.map((post: any) => [post.file, post.problems.map((problem: any) => `${problem.kind}: ${problem.message}`)]));
      expect(Object.keys(byFile).sort()).toEqual(['posts/broken.md', 'posts/edited.md', 'posts/gone.md', 'posts/mixed.md', 'posts/offline.md']);
      expect(byFile['posts/broken.md'][0]).toBe('failed: publishing failed for every account');
      expect(byFile['posts/broken.md'][1]).toMatch(/^failed: account broken: .*publishing failed/);
      expect(byFile['posts/mixed.md'][0]).toBe('partially-published: published to some accounts only');
      expect(byFile['posts/mixed.md'][1]).toMatch(/^failed: account broken: /);
      expect(byFile['posts/edited.md']).toEqual(['drifted: changed on the remote since the last apply (`postsync plan` shows what differs; apply puts the file back)']);
      expect(byFile['posts/gone.md']).toEqual(['drifted: deleted on the remote since the last apply']);
      expect(byFile['posts/offline.md']).toEqual(['blocked: account off is unavailable: token revoked by the owner']);
      expect(report.problemsOnly).toBe(true);

      const human = await runCli(['status', ...api, '--problems'], { cwd: dir });
      expect(human.code).toBe(0);
      expect(human.stdout).not.toContain('posts/fine.md');
      expect(human.stdout).not.toContain('posts/idea.md');
      expect(human.stdout).toContain('  blocked: account off is unavailable: token revoked by the owner');
      expect(human.stdout).toContain('5 managed posts with problems.');

      const healthy = await testdir(projectFiles({ 'posts/idea.md': postFile({ text: 'Nothing wrong here' }) }));
      expect((await runCli([...api, 'apply', '--yes'], { cwd: healthy })).code).toBe(0);
      expect((await runCli(['status', ...api, '--problems'], { cwd: healthy })).stdout).toContain('No problems: no managed post is drifted, failed, partly published or blocked.');
    } finally {
      await emulator.close();
    }
  });
});
