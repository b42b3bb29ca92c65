import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.js';
import { makePng } from '../helpers/media-generators/index.js';
import { buildPlan } from '../../src/pipeline/build-plan.js';
import { connect } from '../../src/pipeline/connect.js';
import { readStateSection } from '../../src/state/state-file.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { testdir } from '../helpers/testdir.js';
import { uploadMedia } from '../emulator/support.js';
import { ACCOUNTS, hoursFromNow, onlySection, postFile, projectFiles, readStateFile, reportingFixture, requireBuild, runCli, runJson, writeStateFile } from './reporting-support.js';

beforeAll(requireBuild);

async function createPost(emulator: TestEmulator, key: string, body: Record<string, unknown>, scheduledAt?: string): Promise<any> {
  const created = await emulator.api('POST', '/posts', { body: { targets: [], mediaIds: [], ...body }, headers: { 'Idempotency-Key': key } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  if (!scheduledAt) return created.body.data;
  const scheduled = await emulator.api('PATCH', `/posts/${created.body.data.id}`, { body: { scheduledAt } });
  expect(scheduled.status, JSON.stringify(scheduled.body)).toBe(200);
  return scheduled.body.data;
}

/** Plans like `postsync plan` does, in-process, and returns the changes of the given keys. */
async function planFor(dir: string, baseUrl: string, keys: string[]) {
  const config = await loadConfig({ cwd: dir, env: { POSTSYNC_API_KEY: 'demo-key' }, flags: { apiUrl: baseUrl } });
  const connection = await connect(config, { ci: false });
  try {
    const { plan } = await buildPlan({ config, connection, state: await readStateSection(config.statePath, connection.project), prune: false, selection: null, now: new Date() });
    return { diagnostics: plan.diagnostics, changes: plan.changes.filter((change) => keys.includes(change.key)) };
  } finally {
    await connection.close();
  }
}

describe('postsync import', () => {
  it('writes files and state for remote drafts and scheduled posts, skips what it cannot reproduce, and the next plan shows no change', async () => {
    const emulator = await startTestEmulator({ fixture: reportingFixture() });
    try {
      const api = ['--api-url', emulator.baseUrl];
      const dir = await testdir(projectFiles({ 'posts/hello.md': postFile({ text: 'Hello', targets: ['ok'], scheduledAt: hoursFromNow(48), media: true }) }));
      expect((await runCli([...api, 'apply', '--yes'], { cwd: dir })).code).toBe(0);
      const ownMediaId = Object.values(onlySection(await readStateFile(dir)).media)[0]!.mediaId;

      const draft = await createPost(emulator, 'k-draft', { content: 'Ünïcode café: the first words of a long text go into the name\n\nSecond paragraph.' });
      const scheduledAt = `${hoursFromNow(3).slice(0, 16)}:00.000Z`;
      const scheduled = await createPost(
        emulator,
        'k-scheduled',
        { content: 'Shared text', mediaIds: [ownMediaId], targets: [{ socialAccountId: ACCOUNTS.ok, contentOverride: 'Photo text\nline two', options: { format: 'feed', shareToFeed: true } }] },
        scheduledAt,
      );
      const padded = await createPost(emulator, 'k-padded', { content: '  padded text  ' });
      const incomplete = await createPost(emulator, 'k-incomplete', { content: 'Needs a picture', targets: [{ socialAccountId: ACCOUNTS.ok }] });
      const foreignMedia = await uploadMedia(emulator, makePng({ width: 8, height: 8, rgb: { r: 255, g: 0, b: 0 } }), { kind: 'image', contentType: 'image/png' });
      const foreign = await createPost(emulator, 'k-foreign', { content: 'Made in the web app', mediaIds: [foreignMedia], targets: [{ socialAccountId: ACCOUNTS.ok }] });
      const interrupted = await createPost(emulator, 'k-interrupted', { content: 'Created, then the run stopped' });
      const published = await createPost(emulator, 'k-published', { content: 'Already out', mediaIds: [ownMediaId], targets: [{ socialAccountId: ACCOUNTS.ok }] }, hoursFromNow(1));
      await emulator.advanceClock(90 * 60);

      // An interrupted apply: the create was sent, state still has it as pending.
      const state = await readStateFile(dir);
      onlySection(state).pending.later = {
        file: 'posts/later.md',
        idempotencyKey: 'k-interrupted',
        payload: { content: 'Created, then the run stopped', targets: [], mediaIds: [] },
        shapeHash: 'c'.repeat(64),
        startedAt: new Date().toISOString(),
      };
      await writeStateFile(dir, state);
      const draftName = `unicode-cafe-the-first-words-of-${draft.id.slice(0, 8)}`;
      // A file of the user's at the name the draft would get: never overwritten.
      const blocker = join(dir, `posts/imported/drafts/${draftName}.md`);
      await mkdir(dirname(blocker), { recursive: true });
      await writeFile(blocker, '---\n---\nMy own note\n');
      const stateBefore = await readFile(join(dir, '.postsync/state.json'), 'utf8');

      const dry = await runJson(['import', ...api, '--dry-run'], { cwd: dir });
      const month = scheduledAt.slice(0, 7);
      // An incomplete draft (a photoC target without media) is imported: on a draft the account's publishing rules are only warnings.
      const incompleteKey = `needs-a-picture-${incomplete.id.slice(0, 8)}`;
      expect(dry.imported.map((item: any) => [item.postId, item.file])).toEqual([
        [draft.id, `posts/imported/drafts/${draftName}-2.md`],
        [scheduled.id, `posts/imported/${month}/shared-text-${scheduled.id.slice(0, 8)}.md`],
        [incomplete.id, `posts/imported/drafts/${incompleteKey}.md`],
      ]);
      const skipped = Object.fromEntries(dry.skipped.map((item: any) => [item.postId, item.reason]));
      expect(skipped[padded.id]).toMatch(/cannot reproduce it exactly \(content/);
      expect(skipped[incomplete.id]).toBeUndefined();
      // Its media was not uploaded from the project: a real import downloads it first, a dry run only says so.
      expect(skipped[foreign.id]).toBeUndefined();
      expect(dry.toDownload).toEqual([{ postId: foreign.id, status: 'draft', media: [{ mediaId: foreignMedia, url: expect.stringMatching(/\/_storage\/media\//) }] }]);
      expect(skipped[interrupted.id]).toMatch(/interrupted create of later/);
      expect(dry.notSelected).toEqual([{ postId: published.id, status: 'published' }]);
      expect(dry.imported[1].text).toBe(
        [
          '---',
          `id: shared-text-${scheduled.id.slice(0, 8)}`,
          `scheduledAt: ${scheduledAt.slice(0, 19)}+00:00`,
          'targets:',
          '  - account: ok',
          '    content: |-',
          '      Photo text',
          '      line two',
          '    options:',
          '      format: feed',
          '      shareToFeed: true',
          'media:',
          '  - media/pic.png',
          '---',
          'Shared text',
          '',
        ].join('\n'),
      );
      expect(existsSync(join(dir, dry.imported[0].file))).toBe(false);
      expect(await readFile(join(dir, '.postsync/state.json'), 'utf8')).toBe(stateBefore);

      const human = await runCli(['import', ...api], { cwd: dir });
      expect(human.code, human.stderr).toBe(0);
      expect(human.stdout).toContain(`+ wrote posts/imported/drafts/${draftName}-2.md`);
      expect(human.stdout).toContain(`+ wrote posts/imported/drafts/made-in-the-web-app-${foreign.id.slice(0, 8)}.md`);
      expect(human.stdout).toMatch(/media downloaded to media\/imported\/\S+\.png/);
      expect(human.stdout).toContain('Imported 4 posts: files written and recorded in .postsync/state.json.');
      expect(human.stdout).toContain('1 post not selected (1 published)');
      expect(await readFile(blocker, 'utf8')).toBe('---\n---\nMy own note\n');
      expect(await readFile(join(dir, dry.imported[0].file), 'utf8')).toBe(dry.imported[0].text);
      const section = onlySection(await readStateFile(dir));
      const draftKey = `${draftName}-2`;
      expect(section.posts[draftKey]).toMatchObject({ postId: draft.id, file: dry.imported[0].file, remoteUpdatedAt: draft.updatedAt });
      expect(section.posts[`shared-text-${scheduled.id.slice(0, 8)}`]?.postId).toBe(scheduled.id);

      await rm(blocker);
      const keys = [draftKey, incompleteKey, `shared-text-${scheduled.id.slice(0, 8)}`];
      const afterImport = await planFor(dir, emulator.baseUrl, keys);
      expect(afterImport.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
      expect(afterImport.diagnostics.filter((d) => d.file === `posts/imported/drafts/${incompleteKey}.md`)).toMatchObject([{ severity: 'warning', readiness: true, code: 'too-few-attachments' }]);
      expect(afterImport.changes.map((change) => [change.key, change.action])).toEqual(keys.sort().map((key) => [key, 'noop']));

      // A run that wrote the file but stopped before the state record: the next import records that file.
      const crashed = await readStateFile(dir);
      delete onlySection(crashed).posts[draftKey];
      await writeStateFile(dir, crashed);
      const all = await runJson(['import', ...api, '--all'], { cwd: dir });
      expect(all.imported.map((item: any) => [item.postId, item.file, item.existingFile])).toEqual([
        [draft.id, `posts/imported/drafts/${draftKey}.md`, true],
        [published.id, `posts/imported/${published.scheduledAt.slice(0, 7)}/already-out-${published.id.slice(0, 8)}.md`, false],
      ]);
      const afterAll = await planFor(dir, emulator.baseUrl, [draftKey, `already-out-${published.id.slice(0, 8)}`]);
      expect(afterAll.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
      expect(afterAll.changes.map((change) => change.action)).toEqual(['noop', 'noop']);
    } finally {
      await emulator.close();
    }
  });
});
