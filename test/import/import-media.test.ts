import { existsSync } from 'node:fs';
import { readdir, readFile, rm, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../src/emulator/index.js';
import { makePng } from '../helpers/media-generators/index.js';
import { sha256Hex } from '../../src/state/hash.js';
import { mp4Bytes, uploadMedia } from '../emulator/support.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { testdir } from '../helpers/testdir.js';
import { onlySection, readStateFile, requireBuild, runCli, runJson } from '../cli/reporting-support.js';

/** `postsync import` brings along media that were not uploaded from the project's files. */

beforeAll(requireBuild);

const CONFIG = `timezone: UTC\naccounts:\n  photo: ${DEMO_ACCOUNTS.photo}\n  video: ${DEMO_ACCOUNTS.video}\n`;

async function createPost(emulator: TestEmulator, body: Record<string, unknown>): Promise<{ id: string }> {
  const created = await emulator.api('POST', '/posts', { body: { mediaIds: [], ...body } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.data;
}

const sha256 = (bytes: Buffer): string => sha256Hex(bytes as unknown as string);

describe('postsync import with media made elsewhere', () => {
  it('downloads them into media/imported/, records them, and the next plan shows no change', async () => {
    const emulator = await startTestEmulator();
    try {
      const api = ['--api-url', emulator.baseUrl];
      const photo = makePng({ width: 40, height: 40, rgb: { r: 10, g: 200, b: 30 } });
      const alreadyHere = makePng({ width: 24, height: 24, rgb: { r: 0, g: 0, b: 250 } });
      const clip = mp4Bytes({ durationSeconds: 4 });
      // A file of the user's at the name the photo would get: it is never overwritten.
      const dir = await testdir({ 'postsync.yaml': CONFIG, 'media/imported/harbour.png': 'not the photo', 'media/blue.png': alreadyHere });
      const photoId = await uploadMedia(emulator, photo, { kind: 'image', contentType: 'image/png', fileName: 'harbour.png' });
      const blueId = await uploadMedia(emulator, alreadyHere, { kind: 'image', contentType: 'image/png', fileName: 'blue square.png' });
      const clipId = await uploadMedia(emulator, clip, { kind: 'video', contentType: 'video/mp4', fileName: 'Behind the scenes!.mp4' });
      const two = await createPost(emulator, { content: 'Two photos', mediaIds: [photoId, blueId], targets: [{ socialAccountId: DEMO_ACCOUNTS.photo }] });
      const again = await createPost(emulator, { content: 'The same photo again', mediaIds: [photoId], targets: [{ socialAccountId: DEMO_ACCOUNTS.photo }] });
      const video = await createPost(emulator, { content: 'A clip', mediaIds: [clipId], targets: [{ socialAccountId: DEMO_ACCOUNTS.video, options: { vidATitle: 'Behind the scenes' } }] });

      const dry = await runJson(['import', ...api, '--dry-run'], { cwd: dir });
      expect(dry.imported).toEqual([]);
      expect(dry.toDownload.map((entry: any) => [entry.postId, entry.media.map((media: any) => media.mediaId)])).toEqual([
        [two.id, [photoId, blueId]],
        [again.id, [photoId]],
        [video.id, [clipId]],
      ]);
      expect(existsSync(join(dir, '.postsync'))).toBe(false);

      const result = await runJson(['import', ...api], { cwd: dir });
      expect(result.skipped).toEqual([]);
      const byPost = Object.fromEntries(result.imported.map((item: any) => [item.postId, item.downloadedMedia.map((media: any) => [media.file, media.created])]));
      expect(byPost).toEqual({
        [two.id]: [['media/imported/harbour-' + sha256(photo).slice(0, 8) + '.png', true], ['media/blue.png', false]],
        [again.id]: [['media/imported/harbour-' + sha256(photo).slice(0, 8) + '.png', true]],
        [video.id]: [['media/imported/Behind_the_scenes_.mp4', true]],
      });
      expect(await readFile(join(dir, 'media/imported/harbour.png'), 'utf8')).toBe('not the photo');
      expect(sha256(await readFile(join(dir, byPost[two.id][0][0])))).toBe(sha256(photo));
      expect(sha256(await readFile(join(dir, 'media/imported/Behind_the_scenes_.mp4')))).toBe(sha256(clip));
      // The downloads' temporary folder is gone; nothing else was written under .postsync/.
      expect((await readdir(join(dir, '.postsync'))).sort()).toEqual(['state.json']);

      const section = onlySection(await readStateFile(dir));
      expect(Object.fromEntries(Object.entries(section.media).map(([sha, record]) => [sha, record.mediaId]))).toEqual({
        [sha256(photo)]: photoId,
        [sha256(alreadyHere)]: blueId,
        [sha256(clip)]: clipId,
      });
      const plan = await runCli(['plan', ...api, '--detailed-exitcode'], { cwd: dir });
      expect(plan.stdout).toContain('No changes.');
      expect(plan.code, plan.stdout + plan.stderr).toBe(0);
      // Nothing is uploaded again: the state knows the media by content.
      const apply = await runCli(['apply', ...api, '--yes'], { cwd: dir });
      expect(apply.code).toBe(0);
      expect((await emulator.requestLog()).filter((entry) => entry.path.endsWith('/media/uploads'))).toHaveLength(3);
    } finally {
      await emulator.close();
    }
  });

  it('never writes outside the project, even through a media folder that links elsewhere', async () => {
    const emulator = await startTestEmulator();
    try {
      const elsewhere = await testdir();
      const dir = await testdir({ 'postsync.yaml': CONFIG });
      await symlink(elsewhere, join(dir, 'media'));
      const photoId = await uploadMedia(emulator, makePng({ width: 12, height: 12 }), { kind: 'image', contentType: 'image/png', fileName: 'far.png' });
      await createPost(emulator, { content: 'Far away', mediaIds: [photoId], targets: [{ socialAccountId: DEMO_ACCOUNTS.photo }] });
      const result = await runCli(['import', '--api-url', emulator.baseUrl], { cwd: dir });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`postsync refuses to write through ${join(dir, 'media')}: it is a symbolic link`);
      expect(await readdir(elsewhere)).toEqual([]);
      expect(await readdir(join(dir, '.postsync'))).toEqual([]);
    } finally {
      await emulator.close();
    }
  });

  it('still skips, with the reason, a post whose media cannot be fetched, and leaves no file behind', async () => {
    const dataDir = await testdir();
    const emulator = await startTestEmulator({ dataDir });
    try {
      const api = ['--api-url', emulator.baseUrl];
      const dir = await testdir({ 'postsync.yaml': CONFIG });
      const lostId = await uploadMedia(emulator, makePng({ width: 16, height: 16 }), { kind: 'image', contentType: 'image/png', fileName: 'lost.png' });
      const fineId = await uploadMedia(emulator, makePng({ width: 18, height: 18 }), { kind: 'image', contentType: 'image/png', fileName: 'fine.png' });
      const lost = await createPost(emulator, { content: 'Its bytes are gone', mediaIds: [fineId, lostId], targets: [{ socialAccountId: DEMO_ACCOUNTS.photo }] });
      // The service lost the stored bytes: the download breaks off.
      await rm(join(dataDir, 'objects', 'media', lostId), { recursive: true });

      const result = await runJson(['import', ...api], { cwd: dir });
      expect(result.imported).toEqual([]);
      expect(result.skipped).toEqual([
        { postId: lost.id, status: 'draft', reason: expect.stringMatching(new RegExp(`^1 of its 2 media was not uploaded from this project's files and cannot be downloaded into it: media ${lostId} could not be downloaded from http://127\\.0\\.0\\.1:\\d+: `)) },
      ]);
      expect(existsSync(join(dir, 'media/imported/fine.png'))).toBe(false);
      // No download left behind, and no state written: nothing was imported.
      expect(await readdir(join(dir, '.postsync'))).toEqual([]);
    } finally {
      await emulator.close();
    }
  });
});
