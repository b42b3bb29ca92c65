import { execFile } from 'node:child_process';
import type { PathLike } from 'node:fs';
import { request } from 'node:http';
import { link, lstat, mkdir, open, readdir, readFile, rename, symlink, unlink, writeFile } from 'node:fs/promises';
import { writeFileAtomic } from '../../src/state/atomic.js';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { CalendarServer, SERVED_MEDIA_PREFIX } from '../../src/calendar/live-server.js';
import { PostFileEditor, postVersion } from '../../src/calendar/post-file-editor.js';
import { calendarFor, launchDay } from '../calendar/fixtures.js';
import { rawRequest } from '../helpers/raw-request.js';
import { testdir } from '../helpers/testdir.js';

const servers: CalendarServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

const LAUNCH = '---\nscheduledAt: "2027-02-03 09:00"\ntargets: [photo]\n---\nLaunch day\n';
const SECRET = 'SECRET-CONTENT';

/** A project whose content folder is `posts` (or what `content` names), served by the edit server. */
async function project(options: { files?: Record<string, string>; content?: string } = {}) {
  const dir = await testdir({
    'postsync.yaml': 'timezone: Europe/Berlin\n',
    'posts/launch.md': LAUNCH,
    'notes.md': `${SECRET}\n`,
    'snippets/secret.md': `${SECRET}\n`,
    '.git/config.md': `${SECRET}\n`,
    '.postsync/state.md': `${SECRET}\n`,
    ...options.files,
  });
  const contentDir = join(dir, options.content ?? 'posts');
  const server = await CalendarServer.start({ port: 0, editor: new PostFileEditor(() => ({ root: dir, contentDir, vars: {}, hashtags: {}, timezone: 'Europe/Berlin' })) });
  servers.push(server);
  server.update({ model: calendarFor({ posts: [launchDay()], mediaPrefix: SERVED_MEDIA_PREFIX }), thumbnails: new Map() });
  const token = new URL(server.url).searchParams.get('t')!;
  const origin = new URL(server.url).origin;
  const post = (path: string, body: string, headers: Record<string, string> = {}) => rawRequest(origin, `${path}?t=${token}`, { method: 'POST', headers: { 'content-type': 'application/json', origin, ...headers }, body });
  const edit = (body: unknown, headers: Record<string, string> = {}) => post('/edit', JSON.stringify(body), headers);
  const alive = async () => (await rawRequest(origin, `/post?file=posts%2Flaunch.md&t=${token}`)).status === 200;
  return { dir, server, token, origin, post, edit, alive };
}

const move = (file = 'posts/launch.md', version = postVersion(LAUNCH)) => ({ action: 'edit', file, version, edit: { kind: 'schedule', at: '2027-02-10 16:30' } });

describe('attack: another web page, or another user of the machine, drives the edit server', () => {
  it('refuses every cross-site request a page can make, with or without the token, and never echoes the token', async () => {
    const { dir, origin, token, edit, post } = await project();
    const body = JSON.stringify(move());
    const answers = {
      'no-cors text/plain form, no token': await rawRequest(origin, '/edit', { method: 'POST', headers: { 'content-type': 'text/plain', origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' }, body }),
      'text/plain with the token, own origin': await post('/edit', body, { 'content-type': 'text/plain;charset=UTF-8' }),
      'urlencoded form with the token': await post('/edit', `a=${encodeURIComponent(body)}`, { 'content-type': 'application/x-www-form-urlencoded' }),
      'multipart form with the token': await post('/edit', body, { 'content-type': 'multipart/form-data; boundary=x' }),
      'text/plain that names json after': await post('/edit', body, { 'content-type': 'text/plain; application/json' }),
      'Origin null (a sandboxed frame)': await edit(move(), { origin: 'null' }),
      'Origin of another port': await edit(move(), { origin: 'http://127.0.0.1:1' }),
      'Origin https of itself': await edit(move(), { origin: origin.replace('http:', 'https:') }),
      'cross-site fetch metadata, no Origin': await rawRequest(origin, `/post?file=posts%2Flaunch.md&t=${token}`, { headers: { 'sec-fetch-site': 'cross-site' } }),
      'DNS rebinding: Host evil.example': await edit(move(), { host: 'evil.example' }),
      'DNS rebinding: Host 127.0.0.1.evil.example': await edit(move(), { host: `127.0.0.1.evil.example:${new URL(origin).port}` }),
      'a wrong token in the header, the right one in the address': await edit(move(), { 'x-postsync-token': 'x'.repeat(token.length) }),
      'GET of /edit with the token': await rawRequest(origin, `/edit?t=${token}&action=edit&file=posts/launch.md`),
      'GET of /render with the token': await rawRequest(origin, `/render?t=${token}&text=x`),
      'the page without the token': await rawRequest(origin, '/'),
      'a post file without the token': await rawRequest(origin, '/post?file=posts%2Flaunch.md'),
    };
    expect(Object.fromEntries(Object.entries(answers).map(([name, answer]) => [name, answer.status]))).toEqual({
      'no-cors text/plain form, no token': 403,
      'text/plain with the token, own origin': 415,
      'urlencoded form with the token': 415,
      'multipart form with the token': 415,
      'text/plain that names json after': 415,
      'Origin null (a sandboxed frame)': 403,
      'Origin of another port': 403,
      'Origin https of itself': 403,
      'cross-site fetch metadata, no Origin': 403,
      'DNS rebinding: Host evil.example': 421,
      'DNS rebinding: Host 127.0.0.1.evil.example': 421,
      'a wrong token in the header, the right one in the address': 403,
      'GET of /edit with the token': 405,
      'GET of /render with the token': 405,
      'the page without the token': 403,
      'a post file without the token': 403,
    });
    for (const answer of Object.values(answers)) {
      expect(answer.body).not.toContain(token);
      expect(answer.headers['access-control-allow-origin']).toBeUndefined();
    }
    expect(await readFile(join(dir, 'posts/launch.md'), 'utf8')).toBe(LAUNCH);
  });

  it('answers a CORS preflight with nothing that lets another origin send JSON', async () => {
    const { origin, token } = await project();
    const answer = await rawRequest(origin, `/edit?t=${token}`, { method: 'OPTIONS', headers: { origin: 'http://evil.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' } });
    expect(answer.status).toBe(403);
    expect(answer.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('serves the page (which its address holds the token of) with a referrer policy that keeps the address to itself, and the token nowhere in its HTML', async () => {
    const { server } = await project();
    const answer = await rawRequest(new URL(server.url).origin, new URL(server.url).pathname + new URL(server.url).search);
    expect(answer.status).toBe(200);
    expect(answer.headers['referrer-policy']).toBe('same-origin');
    expect(answer.body).not.toContain(new URL(server.url).searchParams.get('t')!);
  });
});

describe('attack: a path that leads out of the content folder, or to a file that is no post', () => {
  it.each([
    'notes.md',
    'posts/../notes.md',
    'posts/sub/../../notes.md',
    './posts/launch.md',
    'posts/./launch.md',
    'posts//launch.md',
    'posts/%2e%2e/notes.md',
    'posts\\..\\notes.md',
    'posts/launch.md\u0000.md',
    '/etc/passwd.md',
    `${'../'.repeat(20)}etc/x.md`,
    '.git/config.md',
    '.postsync/state.md',
    'postsync.yaml',
    'snippets/secret.md',
    'posts/',
    '',
  ])('refuses %j for reading, editing, rendering and duplicating, writing nothing', async (file) => {
    const { dir, origin, token, edit, post } = await project();
    const before = await readdir(dir, { recursive: true });
    const answers = [
      await rawRequest(origin, `/post?file=${encodeURIComponent(file)}&t=${token}`),
      await edit(move(file)),
      await edit({ action: 'duplicate', file, version: postVersion(LAUNCH) }),
      await post('/render', JSON.stringify({ file, text: 'x' })),
    ];
    // A name with `%2e%2e` in it is that name, inside the content folder: a preview of a file not written yet.
    expect(answers.map((answer) => answer.status)).toEqual([400, 400, 400, file.includes('%2e') ? 200 : 400]);
    for (const answer of answers) expect(answer.body).not.toContain(SECRET);
    expect(await readdir(dir, { recursive: true })).toEqual(before);
  });

  it('refuses a Markdown file the calendar never lists as a post (under node_modules), with the project root as the content folder', async () => {
    const { dir, origin, token, edit } = await project({ content: '.', files: { 'node_modules/pkg/README.md': LAUNCH } });
    const answers = [await rawRequest(origin, `/post?file=node_modules%2Fpkg%2FREADME.md&t=${token}`), await edit(move('node_modules/pkg/README.md'))];
    expect(answers.map((answer) => [answer.status, (JSON.parse(answer.body) as { message: string }).message])).toEqual([
      [400, expect.stringContaining('node_modules')],
      [400, expect.stringContaining('node_modules')],
    ]);
    expect(await readFile(join(dir, 'node_modules/pkg/README.md'), 'utf8')).toBe(LAUNCH);
  });

  it('refuses a file of the snippets folder as a post, with the project root as the content folder', async () => {
    const { dir, origin, token, edit } = await project({ content: '.' });
    const answers = [await rawRequest(origin, `/post?file=snippets%2Fsecret.md&t=${token}`), await edit(move('snippets/secret.md', postVersion(`${SECRET}\n`)))];
    expect(answers.map((answer) => [answer.status, (JSON.parse(answer.body) as { message: string }).message])).toEqual([
      [400, expect.stringContaining('snippets folder')],
      [400, expect.stringContaining('snippets folder')],
    ]);
    for (const answer of answers) expect(answer.body).not.toContain(SECRET);
    expect(await readFile(join(dir, 'snippets/secret.md'), 'utf8')).toBe(`${SECRET}\n`);
  });

  it('answers a new draft whose month folder is a file with a clear 400 naming it, not the file system\'s message', async () => {
    const { dir, edit } = await project({ files: { 'posts/2027-02': 'not a folder\n' } });
    const answer = await edit({ action: 'new', at: '2027-02-05 09:00' });
    expect(answer.status).toBe(400);
    const { message, hint } = JSON.parse(answer.body) as { message: string; hint: string };
    expect(message).toContain('posts/2027-02 is a file, not a folder');
    expect(message).not.toMatch(/ENOTDIR|EEXIST|errno/);
    expect(hint).toContain('Rename');
    expect(await readFile(join(dir, 'posts/2027-02'), 'utf8')).toBe('not a folder\n');
    expect((await edit({ action: 'new' })).status).toBe(200);
  });

  it('refuses a folder on the way that is a symbolic link, and a content folder that is one', async () => {
    const outside = await testdir({ 'x.md': LAUNCH });
    const linkedFolder = await project();
    await symlink(outside, join(linkedFolder.dir, 'posts/linked'));
    expect((await linkedFolder.edit(move('posts/linked/x.md'))).status).toBe(400);
    const linkedContent = await project({ content: 'content' });
    await symlink(outside, join(linkedContent.dir, 'content'));
    const answers = [
      await rawRequest(linkedContent.origin, `/post?file=content%2Fx.md&t=${linkedContent.token}`),
      await linkedContent.edit(move('content/x.md')),
      await linkedContent.edit({ action: 'duplicate', file: 'content/x.md', version: postVersion(LAUNCH) }),
      await linkedContent.edit({ action: 'new', at: '2027-02-05 09:00' }),
      await linkedContent.edit({ action: 'new' }),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([400, 400, 400, 400, 400]);
    expect(await readdir(outside, { recursive: true })).toEqual(['x.md']);
    expect(await readFile(join(outside, 'x.md'), 'utf8')).toBe(LAUNCH);
  });

  it('never writes through a link a pull request put where a duplicate or a new draft goes', async () => {
    const outside = await testdir({ 'victim.md': 'ORIGINAL\n' });
    const { dir, edit } = await project();
    await symlink(join(outside, 'victim.md'), join(dir, 'posts/launch-copy.md'));
    await symlink(join(outside, 'new.md'), join(dir, 'posts/launch-copy-2.md'));
    await mkdir(join(dir, 'posts/drafts'));
    await symlink(join(outside, 'draft.md'), join(dir, 'posts/drafts/draft.md'));
    await symlink(outside, join(dir, 'posts/2027-02'));
    const answers = [await edit({ action: 'duplicate', file: 'posts/launch.md', version: postVersion(LAUNCH) }), await edit({ action: 'new' }), await edit({ action: 'new', at: '2027-02-05 09:00' })];
    expect(answers.map((answer) => answer.status)).toEqual([400, 400, 400]);
    expect((await readdir(outside)).sort()).toEqual(['victim.md']);
    expect(await readFile(join(outside, 'victim.md'), 'utf8')).toBe('ORIGINAL\n');
  });

  it('refuses a post file over the size of any post (a pull request can commit one) rather than reading it whole, and one that is not UTF-8 rather than rewriting its bytes', async () => {
    const huge = `${LAUNCH}${'x'.repeat(3 * 1024 * 1024)}\n`;
    const latin1 = Buffer.concat([Buffer.from(LAUNCH), Buffer.from([0x43, 0x61, 0x66, 0xe9, 0x0a])]);
    const { dir, origin, token, edit, alive } = await project({ files: { 'posts/huge.md': huge } });
    await writeFile(join(dir, 'posts/latin1.md'), latin1);
    const answers = {
      'read huge': await rawRequest(origin, `/post?file=posts%2Fhuge.md&t=${token}`),
      'edit huge': await edit(move('posts/huge.md', postVersion(huge))),
      'read latin1': await rawRequest(origin, `/post?file=posts%2Flatin1.md&t=${token}`),
      'edit latin1': await edit(move('posts/latin1.md', postVersion(latin1))),
    };
    expect(Object.fromEntries(Object.entries(answers).map(([name, answer]) => [name, [answer.status, (JSON.parse(answer.body) as { message: string }).message]]))).toEqual({
      'read huge': [400, expect.stringContaining('at most 1 MiB')],
      'edit huge': [400, expect.stringContaining('at most 1 MiB')],
      'read latin1': [400, expect.stringContaining('not valid UTF-8')],
      'edit latin1': [400, expect.stringContaining('not valid UTF-8')],
    });
    expect(await readFile(join(dir, 'posts/latin1.md'))).toEqual(latin1);
    expect(await alive()).toBe(true);
  });

  it('reads no special file: a FIFO named like a post answers at once, and the server goes on', async () => {
    const { dir, origin, token, alive } = await project();
    await promisify(execFile)('mkfifo', [join(dir, 'posts/fifo.md')]);
    await mkdir(join(dir, 'posts/folder.md'));
    expect((await rawRequest(origin, `/post?file=posts%2Ffifo.md&t=${token}`)).status).toBe(400);
    expect((await rawRequest(origin, `/post?file=posts%2Ffolder.md&t=${token}`)).status).toBe(400);
    expect(await alive()).toBe(true);
  });
});

describe('attack: a post file replaced by a symbolic link between the check and the write', () => {
  it('replaces the link itself with the file: what the link points at is never written', async () => {
    const outside = await testdir({ 'victim.md': 'ORIGINAL\n' });
    const dir = await testdir({ 'posts/launch.md': LAUNCH });
    const path = join(dir, 'posts/launch.md');
    // The swap happens at the last moment there is: as the written text is renamed into place.
    const racing = { open, link, mkdir, unlink, rename: async (from: PathLike, to: PathLike) => {
      await unlink(to);
      await symlink(join(outside, 'victim.md'), to);
      return rename(from, to);
    } };
    await writeFileAtomic(path, 'NEW\n', { root: dir, fs: racing });
    expect(await readFile(join(outside, 'victim.md'), 'utf8')).toBe('ORIGINAL\n');
    expect([(await lstat(path)).isFile(), await readFile(path, 'utf8')]).toEqual([true, 'NEW\n']);
  });
});

describe('attack: bodies the page never sends', () => {
  it('answers a huge, malformed or mistyped body with a clear 4xx, and keeps serving', async () => {
    const { dir, post, edit, alive } = await project();
    const version = postVersion(LAUNCH);
    const bodies: [string, string][] = [
      ['not JSON', 'action=edit'],
      ['JSON null', 'null'],
      ['a JSON string', '"edit"'],
      ['deeply nested JSON', `${'['.repeat(200_000)}${']'.repeat(200_000)}`],
      ['no action', JSON.stringify({ file: 'posts/launch.md', version })],
      ['file a number', JSON.stringify({ action: 'edit', file: 5, version, edit: { kind: 'unschedule' } })],
      ['edits a string', JSON.stringify({ action: 'edit', file: 'posts/launch.md', version, edits: 'unschedule' })],
      ['edits empty', JSON.stringify({ action: 'edit', file: 'posts/launch.md', version, edits: [] })],
      ['edit null', JSON.stringify({ action: 'edit', file: 'posts/launch.md', version, edit: null })],
      ['kind unknown', JSON.stringify({ action: 'edit', file: 'posts/launch.md', version, edit: { kind: 'delete' } })],
      ['text a number', JSON.stringify({ action: 'edit', file: 'posts/launch.md', version, edit: { kind: 'text', text: 5 } })],
      ['accounts not strings', JSON.stringify({ action: 'edit', file: 'posts/launch.md', version, edit: { kind: 'accounts', accounts: [{}] } })],
      ['option value an object', JSON.stringify({ action: 'edit', file: 'posts/launch.md', version, edit: { kind: 'option', account: 'photo', name: 'link', value: {} } })],
      ['option name with a colon', JSON.stringify({ action: 'edit', file: 'posts/launch.md', version, edit: { kind: 'option', account: 'photo', name: 'a: b', value: 1 } })],
      ['occurrence not a date', JSON.stringify({ action: 'edit', file: 'posts/launch.md', version, edit: { kind: 'unschedule', occurrence: '2027-02-08: x' } })],
      ['new at not a time', JSON.stringify({ action: 'new', at: '../../x' })],
      ['at with a key after a line break', JSON.stringify({ action: 'edit', file: 'posts/launch.md', version, edit: { kind: 'schedule', at: '2027-02-05 09:00\ntargets: [evil]' } })],
      ['new at with a path after a line break', JSON.stringify({ action: 'new', at: '2027-02-05 09:00\n/../../x' })],
      ['version a number', JSON.stringify({ action: 'edit', file: 'posts/launch.md', version: 1, edit: { kind: 'unschedule' } })],
    ];
    const statuses: Record<string, number> = {};
    for (const [name, body] of bodies) {
      const answer = await post('/edit', body);
      statuses[name] = answer.status;
      expect(JSON.parse(answer.body)).toEqual(expect.objectContaining({ message: expect.any(String) }));
    }
    expect(statuses).toEqual(Object.fromEntries(bodies.map(([name]) => [name, 400])));
    expect(await alive()).toBe(true);
    expect((await edit(move())).status).toBe(200);
    expect((await readdir(join(dir, 'posts'))).sort()).toEqual(['launch.md']);
  });

  it('answers a body over the bound with 413 (the sender reads why, its connection is not reset), for an edit and a preview', async () => {
    const { dir, post, alive } = await project();
    const edit = await post('/edit', JSON.stringify({ ...move(), pad: 'x'.repeat(2_000_000) }));
    const render = await post('/render', JSON.stringify({ file: 'posts/launch.md', text: 'x'.repeat(2_000_000) }));
    expect([edit.status, render.status]).toEqual([413, 413]);
    expect(JSON.parse(edit.body)).toEqual({ message: expect.stringContaining('at most') });
    expect(await alive()).toBe(true);
    expect(await readFile(join(dir, 'posts/launch.md'), 'utf8')).toBe(LAUNCH);
  });

  it('refuses a number JSON reads as infinite (1e400) rather than writing the text Infinity', async () => {
    const { dir, post } = await project();
    const answer = await post('/edit', `{"action":"edit","file":"posts/launch.md","version":"${postVersion(LAUNCH)}","edit":{"kind":"option","account":"photo","name":"link","value":1e400}}`);
    expect([answer.status, JSON.parse(answer.body)]).toEqual([400, { message: 'this is no edit: `value` must be a string, a finite number, a boolean, null or a list of strings' }]);
    expect(await readFile(join(dir, 'posts/launch.md'), 'utf8')).toBe(LAUNCH);
  });

  it('keeps serving after a client hangs up halfway through a body', async () => {
    const { origin, token, alive } = await project();
    await new Promise<void>((resolve) => {
      const { hostname, port } = new URL(origin);
      const outgoing = request({ host: hostname, port, path: `/edit?t=${token}`, method: 'POST', headers: { 'content-type': 'application/json', 'content-length': '100000' } });
      outgoing.on('error', () => resolve());
      outgoing.write('{"action":"edit",', () => setImmediate(() => outgoing.destroy()));
      outgoing.on('close', () => resolve());
    });
    expect(await alive()).toBe(true);
  });
});

describe('attack: the preview renders files it must not read', () => {
  it('fills in no snippet, and no file outside the snippets folder, in a typed text', async () => {
    const { post } = await project({ files: { 'posts/own.md': `${SECRET}\n` } });
    for (const text of ['{{> snippets/secret.md }}', '{{> ../notes.md }}', '{{> /etc/hostname }}', '{{> posts/own.md }}', '{{> .git/config.md }}', '{{ env.HOME }}']) {
      const answer = await post('/render', JSON.stringify({ file: 'posts/launch.md', text }));
      expect([text, answer.status]).toEqual([text, 200]);
      expect(answer.body).not.toContain(SECRET);
      expect(answer.body).not.toContain(process.env.HOME ?? '/nonexistent-home');
    }
  });
});
