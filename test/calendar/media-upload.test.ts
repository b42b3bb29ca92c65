import { mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CalendarServer, SERVED_MEDIA_PREFIX } from '../../src/calendar/live-server.js';
import { PostFileEditor } from '../../src/calendar/post-file-editor.js';
import { makePng } from '../../src/media/solid-png.js';
import { rawRequest } from '../helpers/raw-request.js';
import { testCapabilities, testRules } from '../helpers/media.js';
import { testdir } from '../helpers/testdir.js';
import { calendarFor, launchDay } from './fixtures.js';

const PHOTO = 'photo-id';
const VIDEO = 'video-id';
const PNG = makePng({ width: 4, height: 4 });

describe('adding a media file from the calendar editor (POST /upload)', () => {
  let dir: string;
  let server: CalendarServer;
  let upload: (body: unknown, headers?: Record<string, string>) => Promise<{ status: number; body: string }>;
  const answer = async (body: unknown) => {
    const reply = await upload(body);
    return [reply.status, JSON.parse(reply.body) as Record<string, unknown>] as const;
  };
  const png = (extra: Record<string, unknown> = {}) => ({ file: 'posts/2027-02/launch.md', name: 'My photo.PNG', data: PNG.toString('base64'), accounts: [PHOTO], ...extra });

  beforeAll(async () => {
    dir = await testdir({ 'postsync.yaml': 'timezone: Europe/Berlin\n', 'posts/2027-02/launch.md': '---\ntargets: [photo]\n---\nHi\n', 'posts/other.md': '---\ntargets: [photo]\n---\nHi\n' });
    server = await CalendarServer.start({ port: 0, editor: new PostFileEditor(() => ({ root: dir, contentDir: join(dir, 'posts'), vars: {}, hashtags: {}, timezone: 'Europe/Berlin' })) });
    const capabilities = new Map([[PHOTO, testCapabilities(PHOTO, 'photoC', testRules('photoC'))], [VIDEO, testCapabilities(VIDEO, 'vidA', testRules('vidA'))]]);
    server.update({ model: calendarFor({ posts: [launchDay()], mediaPrefix: SERVED_MEDIA_PREFIX }), thumbnails: new Map(), capabilities });
    const { origin, searchParams } = new URL(server.url);
    upload = (body, headers = {}) => rawRequest(origin, `/upload?t=${searchParams.get('t')}`, { method: 'POST', headers: { 'content-type': 'application/json', origin, ...headers }, body: JSON.stringify(body) });
  });
  afterAll(async () => {
    await server.close();
  });

  it('writes the file under media/, named from the post with the type its bytes are, and the same bytes again are that file', async () => {
    expect(await answer(png())).toEqual([200, { path: 'media/2027-02/launch.png', kind: 'image', contentType: 'image/png', sizeBytes: PNG.length }]);
    expect((await readFile(join(dir, 'media/2027-02/launch.png'))).equals(PNG)).toBe(true);
    expect((await answer(png()))[1].path).toBe('media/2027-02/launch.png');
    const other = makePng({ width: 5, height: 5 });
    expect((await answer(png({ data: other.toString('base64') })))[1].path).toBe('media/2027-02/launch-2.png');
    expect((await readFile(join(dir, 'media/2027-02/launch.png'))).equals(PNG)).toBe(true);
  });

  it('refuses a file an account of the post cannot take, a file that is no image or video, and bytes that are not base64, writing nothing', async () => {
    const before = await readdir(join(dir, 'media'), { recursive: true });
    const [status, body] = await answer(png({ file: 'posts/other.md', accounts: [PHOTO, VIDEO] }));
    expect([status, body.message]).toEqual([400, '"My photo.PNG" cannot go on this post: My photo.PNG is image/png; video-id (vidA) accepts no images (rules.media.images.contentTypes)']);
    expect(await answer(png({ file: 'posts/other.md', data: Buffer.from('just text').toString('base64') }))).toEqual([400, { message: '"My photo.PNG" is not an image or a video postsync can read (unrecognized file format)', hint: expect.stringContaining('JPEG') }]);
    expect((await answer(png({ data: 'not base64!' })))[0]).toBe(400);
    expect((await answer(png({ file: 'notes.md' })))[0]).toBe(400);
    expect(await readdir(join(dir, 'media'), { recursive: true })).toEqual(before);
  });

  it('refuses a media or list edit that is malformed, naming the field', async () => {
    const { origin, searchParams } = new URL(server.url);
    const edit = async (change: unknown) => {
      const reply = await rawRequest(origin, `/edit?t=${searchParams.get('t')}`, { method: 'POST', headers: { 'content-type': 'application/json', origin }, body: JSON.stringify({ action: 'edit', file: 'posts/other.md', version: 'v', edit: change }) });
      return [reply.status, (JSON.parse(reply.body) as { message: string }).message];
    };
    expect(await edit({ kind: 'media-remove', index: -1 })).toEqual([400, 'this is no edit: `index` must be a place in the list']);
    expect(await edit({ kind: 'media-add', path: 'a\nb.png' })).toEqual([400, 'this is no edit: `path` must be a media path, project-relative']);
    expect(await edit({ kind: 'option', account: 'photo', name: 'vidATags', value: ['a', 1] })).toEqual([400, 'this is no edit: a list `value` must hold at most 100 strings']);
    expect(await edit({ kind: 'target-text', account: 'photo' })).toEqual([400, 'this is no edit: `account` and `text` must be strings']);
  });

  it('answers 413 past the bound, and refuses a media folder that is a link, and a GET', async () => {
    const big = await upload({ ...png(), data: 'A'.repeat(46 * 1024 * 1024) });
    expect(big.status).toBe(413);
    const { origin, searchParams } = new URL(server.url);
    expect((await rawRequest(origin, `/upload?t=${searchParams.get('t')}`)).status).toBe(405);
    const outside = await testdir({});
    await mkdir(join(dir, 'posts/linked'), { recursive: true });
    await writeFile(join(dir, 'posts/linked/post.md'), '---\ntargets: [photo]\n---\nHi\n');
    await symlink(outside, join(dir, 'media/linked'));
    const [status, body] = await answer(png({ file: 'posts/linked/post.md' }));
    expect([status, body.message]).toEqual([400, expect.stringContaining('symbolic link')]);
    expect(await readdir(outside)).toEqual([]);
  });
});
