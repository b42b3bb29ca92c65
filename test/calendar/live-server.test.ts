import { join } from 'node:path';
import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import type { PostsDelta } from '../../src/calendar/calendar-events.js';
import { CalendarServer, encodingFor, SERVED_MEDIA_PREFIX } from '../../src/calendar/live-server.js';
import { rawRequest } from '../helpers/raw-request.js';
import { testdir } from '../helpers/testdir.js';
import { desired, shape } from '../helpers/fixtures.js';
import { calendarFor, launchDay, sseEventOf } from './fixtures.js';

const servers: CalendarServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function started(): Promise<CalendarServer> {
  const server = await CalendarServer.start({ port: 0 });
  servers.push(server);
  return server;
}

/** `path` on the server, with the token of the address it printed (which every request must carry). */
function at(server: CalendarServer, path: string): URL {
  const url = new URL(path, server.url);
  url.searchParams.set('t', new URL(server.url).searchParams.get('t') ?? '');
  return url;
}

/** The server-sent events of /events, one at a time (the `retry` line and keep-alive comments skipped). */
async function openEvents(server: CalendarServer, query: string, headers: Record<string, string> = {}) {
  const response = await fetch(at(server, `/events${query}`), { headers });
  expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  return {
    async next(): Promise<{ name: string; id: string; data: unknown }> {
      for (;;) {
        const end = buffer.indexOf('\n\n');
        if (end >= 0) {
          const event = sseEventOf(buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
          if (event !== null) return event;
          continue;
        }
        const { value, done } = await reader.read();
        if (done) throw new Error('the event stream ended');
        buffer += value;
      }
    },
    close: () => reader.cancel(),
  };
}

const model = (text: string) => calendarFor({ posts: [launchDay(text)], mediaPrefix: SERVED_MEDIA_PREFIX });

describe('CalendarServer (watch --calendar)', () => {
  it('answers a page opened before the first calendar with one that loads itself again, then serves the calendar', async () => {
    const server = await started();
    const early = await fetch(server.url);
    expect(early.status).toBe(503);
    expect(early.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await early.text()).toMatch(/location.reload\(\)[\s\S]*being made/);

    server.update({ model: model('Launch day'), thumbnails: new Map() });
    const page = await fetch(server.url);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('id="calendar-data"');
    expect(html).toContain('data-live="/events?since=1"');
    expect(html).toContain('Launch day');
  });

  it('sends an open page the first calendar whole, then after each update only the posts that changed', async () => {
    const server = await started();
    const events = await openEvents(server, '');
    const two = [launchDay(), desired('later', shape({ content: 'Later on' }))];
    server.update({ model: calendarFor({ posts: two }), thumbnails: new Map() });
    const first = await events.next();
    expect([first.name, first.id]).toEqual(['calendar', '1']);
    expect((first.data as { posts: { key: string }[] }).posts.map((post) => post.key)).toEqual(['launch', 'later']);

    server.update({ model: calendarFor({ posts: [two[0]!, desired('later', shape({ content: 'Later on, edited' }))] }), thumbnails: new Map() });
    const second = await events.next();
    expect([second.name, second.id]).toEqual(['posts', '2']);
    const delta = second.data as PostsDelta;
    expect(delta.base).toBe(1);
    expect(delta.order).toEqual(['launch', 'later']);
    expect(delta.changed.map((post) => [post.key, post.text])).toEqual([['later', 'Later on, edited']]);
    expect(delta.calendar.timezone).toBe('Europe/Berlin');
    await events.close();
  });

  it('sends the whole latest calendar first to a page that holds another one, and nothing to one that holds it', async () => {
    const server = await started();
    server.update({ model: model('Launch day'), thumbnails: new Map() });
    server.update({ model: model('Launch day, edited'), thumbnails: new Map() });
    const stale = await openEvents(server, '?since=1');
    const whole = await stale.next();
    expect([whole.name, whole.id]).toEqual(['calendar', '2']);
    expect(JSON.stringify(whole.data)).toContain('Launch day, edited');
    await stale.close();

    // A page that reconnects says what it last got (Last-Event-ID), over the version its address names.
    const current = await openEvents(server, '?since=1', { 'last-event-id': '2' });
    server.update({ model: model('Launch day, edited twice'), thumbnails: new Map() });
    expect((await current.next()).name).toBe('posts');
    await current.close();
  });

  it('serves only the thumbnails the calendar shows, and only reads', async () => {
    const dir = await testdir({ 'media/cover.png': 'not really a png' });
    const server = await started();
    server.update({ model: model('Launch day'), thumbnails: new Map([[`${SERVED_MEDIA_PREFIX}abc.png`, join(dir, 'media/cover.png')]]) });
    const thumbnail = await fetch(at(server, '/media/abc.png'));
    expect([thumbnail.status, thumbnail.headers.get('content-type'), await thumbnail.text()]).toEqual([200, 'image/png', 'not really a png']);
    expect((await fetch(at(server, '/media/other.png'))).status).toBe(404);
    expect((await fetch(at(server, '/media/..%2Fpostsync.yaml'))).status).toBe(404);
    const post = await fetch(server.url, { method: 'POST' });
    expect([post.status, post.headers.get('allow')]).toEqual([405, 'GET, HEAD']);
  });

  it('prints an address on loopback that holds a token of its own, and answers nothing without it', async () => {
    const dir = await testdir({ 'media/cover.png': 'not really a png' });
    const [server, other] = [await started(), await started()];
    server.update({ model: model('Launch day'), thumbnails: new Map([[`${SERVED_MEDIA_PREFIX}abc.png`, join(dir, 'media/cover.png')]]) });
    const printed = new URL(server.url);
    expect(printed.hostname).toBe('127.0.0.1');
    expect(printed.pathname).toBe('/');
    expect(printed.searchParams.get('t')).toMatch(/^[\w-]{32,}$/);
    expect(new URL(other.url).searchParams.get('t')).not.toBe(printed.searchParams.get('t'));
    const origin = printed.origin;
    for (const path of ['/', '/events', '/media/abc.png', `/media/abc.png?t=${new URL(other.url).searchParams.get('t')}`]) {
      const refused = await rawRequest(origin, path);
      expect([path, refused.status]).toEqual([path, 403]);
      expect(refused.body).toContain('open the address postsync printed');
    }
    expect((await rawRequest(origin, `${at(server, '/media/abc.png').pathname}${at(server, '/media/abc.png').search}`)).body).toBe('not really a png');
  });

  it('answers only the names it printed (no DNS rebinding) and only its own page (no cross-site request)', async () => {
    const server = await started();
    server.update({ model: model('Unpublished draft'), thumbnails: new Map() });
    const page = at(server, '/');
    const path = `${page.pathname}${page.search}`;
    const port = page.port;
    for (const host of ['evil.example', `evil.example:${port}`, '127.0.0.1', `127.0.0.1:1`]) {
      const answer = await rawRequest(page.origin, path, { headers: { host } });
      expect([host, answer.status]).toEqual([host, 421]);
      expect(answer.body).not.toContain('Unpublished draft');
    }
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]) {
      expect([host, (await rawRequest(page.origin, path, { headers: { host } })).status]).toEqual([host, 200]);
    }
    for (const origin of ['http://evil.example', `http://127.0.0.1:${Number(port) + 1}`, 'null']) {
      const answer = await rawRequest(page.origin, path, { headers: { origin } });
      expect([origin, answer.status]).toEqual([origin, 403]);
    }
    expect((await rawRequest(page.origin, path, { headers: { 'sec-fetch-site': 'cross-site' } })).status).toBe(403);
    expect((await rawRequest(page.origin, path, { headers: { origin: page.origin, 'sec-fetch-site': 'same-origin' } })).status).toBe(200);
  });

  it('compresses the page for a client that accepts it (Brotli, else gzip), and answers the browser\'s icon request without the token', async () => {
    const server = await started();
    server.update({ model: model('Launch day'), thumbnails: new Map() });
    const plain = await rawBytes(server.url, {});
    expect(plain.headers['content-encoding']).toBeUndefined();
    const br = await rawBytes(server.url, { 'accept-encoding': 'gzip, deflate, br' });
    expect([br.headers['content-encoding'], br.headers.vary]).toEqual(['br', 'accept-encoding']);
    expect(brotliDecompressSync(br.body).toString('utf8')).toBe(plain.body.toString('utf8'));
    expect(br.body.length).toBeLessThan(plain.body.length / 3);
    const gzip = await rawBytes(server.url, { 'accept-encoding': 'gzip, br;q=0' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.body).toString('utf8')).toBe(plain.body.toString('utf8'));
    expect([encodingFor(undefined), encodingFor('identity'), encodingFor('*'), encodingFor('br;q=0, *;q=0.5'), encodingFor('GZIP;q=0.5')]).toEqual([null, null, 'br', 'gzip', 'gzip']);

    // The page names its icon inline (a browser asks for none); a tool that asks gets no content, without the token, on the server's names only.
    expect(plain.body.toString('utf8')).toContain('<link rel="icon" href="data:image/svg+xml,');
    const { origin } = new URL(server.url);
    expect((await rawRequest(origin, '/favicon.ico')).status).toBe(204);
    expect((await rawRequest(origin, '/favicon.ico', { headers: { host: 'evil.example' } })).status).toBe(421);
    expect((await rawRequest(origin, '/favicon.ico', { method: 'POST' })).status).toBe(403);
  });

  it('answers a malformed address with 400 and keeps serving', async () => {
    const server = await started();
    server.update({ model: model('Launch day'), thumbnails: new Map() });
    const token = new URL(server.url).searchParams.get('t')!;
    const { origin } = new URL(server.url);
    for (const path of ['/media/%', `/media/%?t=${token}`, `/%E0%A4%A?t=${token}`, `/media/%E0%A4%A?t=${token}`]) {
      expect([path, (await rawRequest(origin, path)).status]).toEqual([path, 400]);
    }
    expect((await fetch(server.url)).status).toBe(200);
  });
});

/** A GET of `url` with `headers`, its body as the bytes sent (fetch would decode them). */
function rawBytes(url: string, headers: Record<string, string>): Promise<{ headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }));
      response.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}
