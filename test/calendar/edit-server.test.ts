import { readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CalendarServer, SERVED_MEDIA_PREFIX } from '../../src/calendar/live-server.js';
import { PostFileEditor, postVersion } from '../../src/calendar/post-file-editor.js';
import { rawRequest } from '../helpers/raw-request.js';
import { testdir } from '../helpers/testdir.js';
import { calendarFor, launchDay } from './fixtures.js';

const servers: CalendarServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

const LAUNCH = '---\n# launch\nscheduledAt: "2027-02-03 09:00"  # keep\ntargets: [photo]\n---\nLaunch day\n';

async function project() {
  const dir = await testdir({ 'postsync.yaml': 'timezone: Europe/Berlin\n', 'posts/launch.md': LAUNCH, 'notes.md': 'not a post\n', 'posts/.hidden/x.md': LAUNCH });
  const server = await CalendarServer.start({ port: 0, editor: new PostFileEditor(() => ({ root: dir, contentDir: join(dir, 'posts'), vars: { product: 'Roast No. 5' }, hashtags: {}, timezone: 'Europe/Berlin' })) });
  servers.push(server);
  server.update({ model: calendarFor({ posts: [launchDay()], mediaPrefix: SERVED_MEDIA_PREFIX }), thumbnails: new Map() });
  const token = new URL(server.url).searchParams.get('t')!;
  const origin = new URL(server.url).origin;
  const post = (body: unknown, headers: Record<string, string> = {}) =>
    rawRequest(origin, `/edit?t=${token}`, { method: 'POST', headers: { 'content-type': 'application/json', origin, ...headers }, body: JSON.stringify(body) });
  return { dir, server, token, origin, post };
}

const moveLaunch = (version: string) => ({ action: 'edit', file: 'posts/launch.md', version, edit: { kind: 'schedule', at: '2027-02-10 16:30' } });

describe('the edit server of watch --calendar', () => {
  it('writes the one change an edit names, and answers the new version', async () => {
    const { dir, post } = await project();
    const answer = await post(moveLaunch(postVersion(LAUNCH)));
    expect(answer.status).toBe(200);
    const written = LAUNCH.replace('"2027-02-03 09:00"', '"2027-02-10 16:30"');
    expect(await readFile(join(dir, 'posts/launch.md'), 'utf8')).toBe(written);
    expect(JSON.parse(answer.body)).toEqual({ file: 'posts/launch.md', text: written, version: postVersion(written), media: [], texts: {} });
  });

  it('undoes the last edit of a file: its bytes before it, only while the file is what the edit wrote, and once', async () => {
    const { dir, post } = await project();
    const moved = JSON.parse((await post(moveLaunch(postVersion(LAUNCH)))).body) as { version: string };
    const undo = await post({ action: 'undo', file: 'posts/launch.md', version: moved.version });
    expect(undo.status).toBe(200);
    expect(await readFile(join(dir, 'posts/launch.md'), 'utf8')).toBe(LAUNCH);
    expect(JSON.parse(undo.body)).toEqual({ file: 'posts/launch.md', text: LAUNCH, version: postVersion(LAUNCH), media: [], texts: {} });
    // Once: the undo of an undo is no undo (the edit is made again instead).
    const again = await post({ action: 'undo', file: 'posts/launch.md', version: postVersion(LAUNCH) });
    expect([again.status, (JSON.parse(again.body) as { message: string }).message]).toEqual([400, 'there is no edit of posts/launch.md to undo: the page\'s last edit of it was undone already, or was not made by this watch']);
    // A file saved in an editor after the edit: nothing is undone, and the page gets the file as it is now.
    const second = JSON.parse((await post(moveLaunch(postVersion(LAUNCH)))).body) as { text: string; version: string };
    const saved = second.text.replace('Launch day', 'Launch day, saved in an editor');
    await writeFile(join(dir, 'posts/launch.md'), saved);
    const stale = await post({ action: 'undo', file: 'posts/launch.md', version: second.version });
    expect([stale.status, (JSON.parse(stale.body) as { post: { text: string } }).post.text]).toEqual([409, saved]);
    expect(await readFile(join(dir, 'posts/launch.md'), 'utf8')).toBe(saved);
  });

  it('keeps the undo of the last 100 files edited, the oldest forgotten first', async () => {
    const files = Object.fromEntries(Array.from({ length: 101 }, (_, index) => [`posts/p${index}.md`, LAUNCH]));
    const dir = await testdir({ 'postsync.yaml': 'timezone: Europe/Berlin\n', ...files });
    const editor = new PostFileEditor(() => ({ root: dir, contentDir: join(dir, 'posts'), vars: {}, hashtags: {}, timezone: 'Europe/Berlin' }));
    const versions: string[] = [];
    for (const file of Object.keys(files)) {
      const outcome = await editor.apply({ action: 'edit', file, version: postVersion(LAUNCH), edits: [{ kind: 'schedule', at: '2027-02-10 16:30' }] });
      versions.push(outcome.post.version);
    }
    await expect(editor.apply({ action: 'undo', file: 'posts/p0.md', version: versions[0]! })).rejects.toThrow(/^there is no edit of posts\/p0.md to undo/);
    expect((await editor.apply({ action: 'undo', file: 'posts/p1.md', version: versions[1]! })).post.text).toBe(LAUNCH);
  });

  it('reads a post file with its version, for the editor', async () => {
    const { origin, token } = await project();
    const answer = await rawRequest(origin, `/post?file=posts%2Flaunch.md&t=${token}`);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ file: 'posts/launch.md', text: LAUNCH, version: postVersion(LAUNCH), media: [], texts: {} });
  });

  it('writes nothing for a file changed on disk since the page read it (409), and answers the file as it is now', async () => {
    const { dir, post } = await project();
    const now = LAUNCH.replace('Launch day', 'Launch day, saved in an editor');
    await writeFile(join(dir, 'posts/launch.md'), now);
    const answer = await post(moveLaunch(postVersion(LAUNCH)));
    expect(answer.status).toBe(409);
    const body = JSON.parse(answer.body) as { message: string; post: unknown };
    expect(body.message).toMatch(/^posts\/launch.md changed on disk since this page read it: nothing was written/);
    expect(body.post).toEqual({ file: 'posts/launch.md', text: now, version: postVersion(now), media: [], texts: {} });
    expect(await readFile(join(dir, 'posts/launch.md'), 'utf8')).toBe(now);
  });

  it('writes one of ten edits sent at once that name the same version, and answers the nine others 409 with the file as it is now', async () => {
    const { dir, post } = await project();
    const texts = Array.from({ length: 10 }, (_, index) => `Launch day, take ${index}`);
    const answers = await Promise.all(texts.map((text) => post({ action: 'edit', file: 'posts/launch.md', version: postVersion(LAUNCH), edit: { kind: 'text', text } })));
    const written = answers.filter((answer) => answer.status === 200);
    const refused = answers.filter((answer) => answer.status === 409);
    expect([written.length, refused.length]).toEqual([1, 9]);
    const onDisk = await readFile(join(dir, 'posts/launch.md'), 'utf8');
    expect(JSON.parse(written[0]!.body)).toEqual({ file: 'posts/launch.md', text: onDisk, version: postVersion(onDisk), media: [], texts: {} });
    for (const answer of refused) expect((JSON.parse(answer.body) as { post: unknown }).post).toEqual({ file: 'posts/launch.md', text: onDisk, version: postVersion(onDisk), media: [], texts: {} });
  });

  it('refuses a request without the token, from another origin or Host, with a body that is not JSON, and every GET of /edit', async () => {
    const { dir, origin, token, post } = await project();
    const version = postVersion(LAUNCH);
    const refusals = [
      ['no token', await rawRequest(origin, '/edit', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(moveLaunch(version)) })],
      ['other origin', await post(moveLaunch(version), { origin: 'http://evil.example' })],
      ['same-site page', await post(moveLaunch(version), { 'sec-fetch-site': 'same-site' })],
      ['other host', await post(moveLaunch(version), { host: 'evil.example' })],
      ['form body', await rawRequest(origin, `/edit?t=${token}`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: JSON.stringify(moveLaunch(version)) })],
      ['GET', await rawRequest(origin, `/edit?t=${token}&file=posts/launch.md`)],
    ] as const;
    expect(refusals.map(([name, answer]) => [name, answer.status])).toEqual([
      ['no token', 403],
      ['other origin', 403],
      ['same-site page', 403],
      ['other host', 421],
      ['form body', 415],
      ['GET', 405],
    ]);
    expect(await readFile(join(dir, 'posts/launch.md'), 'utf8')).toBe(LAUNCH);
  });

  it('refuses a path outside the content folder, hidden, not Markdown, or through a symbolic link', async () => {
    const { dir, post } = await project();
    await symlink(join(dir, 'notes.md'), join(dir, 'posts/linked.md'));
    for (const [file, why] of [
      ['notes.md', 'outside the content folder'],
      ['posts/../notes.md', 'not a project-relative path'],
      ['/etc/passwd.md', 'not a project-relative path'],
      ['posts/.hidden/x.md', 'hidden'],
      ['postsync.yaml', 'not a Markdown post file'],
      ['posts/linked.md', 'symbolic link'],
    ] as const) {
      const answer = await post({ action: 'edit', file, version: postVersion(LAUNCH), edit: { kind: 'unschedule' } });
      expect([file, answer.status, (JSON.parse(answer.body) as { message: string }).message]).toEqual([file, 400, expect.stringContaining(why)]);
    }
    expect(await readFile(join(dir, 'notes.md'), 'utf8')).toBe('not a post\n');
    expect(await readFile(join(dir, 'posts/.hidden/x.md'), 'utf8')).toBe(LAUNCH);
  });

  it('renders a typed text for the preview, {{ }} filled in, and writes nothing', async () => {
    const { dir, origin, token } = await project();
    const answer = await rawRequest(origin, `/render?t=${token}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ file: 'posts/launch.md', text: 'New {{ product }} in {{ file.name }}, {{ nope }}' }) });
    expect(answer.status).toBe(200);
    const body = JSON.parse(answer.body) as { text: string; problems: string[] };
    expect(body.text).toMatch(/^New Roast No\. 5 in launch, /);
    expect(body.problems).toEqual([expect.stringContaining('nope')]);
    expect(await readFile(join(dir, 'posts/launch.md'), 'utf8')).toBe(LAUNCH);
  });

  it('refuses an edit it does not know, naming what is wrong', async () => {
    const { post } = await project();
    const answer = await post({ action: 'edit', file: 'posts/launch.md', version: postVersion(LAUNCH), edit: { kind: 'schedule', at: 'tomorrow' } });
    expect([answer.status, JSON.parse(answer.body)]).toEqual([400, { message: 'this is no edit: `at` must be a wall time, YYYY-MM-DD HH:mm' }]);
  });

  it('makes a new draft under a free name, and duplicates a post as a file of its own', async () => {
    const { dir, post } = await project();
    const first = JSON.parse((await post({ action: 'new', at: '2027-02-05 09:00' })).body) as { file: string; text: string };
    const second = JSON.parse((await post({ action: 'new', at: '2027-02-05 09:00' })).body) as { file: string };
    expect([first.file, second.file]).toEqual(['posts/2027-02/2027-02-05-draft.md', 'posts/2027-02/2027-02-05-draft-2.md']);
    expect(await readFile(join(dir, first.file), 'utf8')).toBe(first.text);
    expect(first.text).toContain('scheduledAt: 2027-02-05 09:00\ndraft: true\ntargets: []\n');
    // The copy goes to the free slot the page found, never onto the original's time; without one it is a draft.
    const copy = JSON.parse((await post({ action: 'duplicate', file: 'posts/launch.md', version: postVersion(LAUNCH), at: '2027-02-04 15:30' })).body) as { file: string };
    expect(copy.file).toBe('posts/launch-copy.md');
    expect(await readFile(join(dir, 'posts/launch-copy.md'), 'utf8')).toBe(LAUNCH.replace('"2027-02-03 09:00"', '"2027-02-04 15:30"'));
    await post({ action: 'duplicate', file: 'posts/launch.md', version: postVersion(LAUNCH) });
    expect(await readFile(join(dir, 'posts/launch-copy-2.md'), 'utf8')).toBe(LAUNCH.replace('scheduledAt: "2027-02-03 09:00"  # keep\n', ''));
    const refused = await post({ action: 'duplicate', file: 'posts/launch.md', version: postVersion(LAUNCH), at: 'next week' });
    expect([refused.status, JSON.parse(refused.body)]).toEqual([400, { message: 'this is no edit: `at` must be a wall time, YYYY-MM-DD HH:mm' }]);
  });

  it('is absent from a server without an editor: the page is read-only', async () => {
    const server = await CalendarServer.start({ port: 0 });
    servers.push(server);
    server.update({ model: calendarFor({ posts: [launchDay()], mediaPrefix: SERVED_MEDIA_PREFIX }), thumbnails: new Map() });
    expect(await (await fetch(server.url)).text()).not.toContain('data-edit');
    const origin = new URL(server.url).origin;
    const answer = await rawRequest(origin, `/edit?t=${new URL(server.url).searchParams.get('t')}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(answer.status).toBe(405);
  });
});
