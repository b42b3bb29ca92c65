import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CalendarServer, SERVED_MEDIA_PREFIX } from '../../src/calendar/live-server.js';
import { testdir } from '../helpers/testdir.js';
import { calendarFor, desired, shape } from './fixtures.js';

const servers: CalendarServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function started(): Promise<CalendarServer> {
  const server = await CalendarServer.start({ port: 0 });
  servers.push(server);
  return server;
}

const model = (text: string) => calendarFor({ posts: [desired('launch', shape({ content: text, scheduledAt: '2027-02-03T08:00:00.000Z' }))], mediaPrefix: SERVED_MEDIA_PREFIX });

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
    expect(html).toContain('data-live="/events"');
    expect(html).toContain('Launch day');
  });

  it('sends each new calendar to an open page as a server-sent event', async () => {
    const server = await started();
    const events = await fetch(new URL('/events', server.url));
    expect(events.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const reader = events.body!.pipeThrough(new TextDecoderStream()).getReader();
    expect((await reader.read()).value).toBe('retry: 1000\n\n');
    server.update({ model: model('Launch day, edited'), thumbnails: new Map() });
    let text = '';
    while (!text.endsWith('\n\n')) text += (await reader.read()).value ?? '';
    expect(text.startsWith('event: calendar\ndata: ')).toBe(true);
    const sent = JSON.parse(text.slice('event: calendar\ndata: '.length)) as { posts: { key: string; content: string }[] };
    expect(sent.posts.map((post) => post.key)).toEqual(['launch']);
    expect(sent.posts[0]!.content).toContain('Launch day, edited');
    await reader.cancel();
  });

  it('serves only the thumbnails the calendar shows, and only reads', async () => {
    const dir = await testdir({ 'media/cover.png': 'not really a png' });
    const server = await started();
    server.update({ model: model('Launch day'), thumbnails: new Map([[`${SERVED_MEDIA_PREFIX}abc.png`, join(dir, 'media/cover.png')]]) });
    const thumbnail = await fetch(new URL('/media/abc.png', server.url));
    expect([thumbnail.status, thumbnail.headers.get('content-type'), await thumbnail.text()]).toEqual([200, 'image/png', 'not really a png']);
    expect((await fetch(new URL('/media/other.png', server.url))).status).toBe(404);
    expect((await fetch(new URL('/media/..%2Fpostsync.yaml', server.url))).status).toBe(404);
    const post = await fetch(server.url, { method: 'POST' });
    expect([post.status, post.headers.get('allow')]).toEqual([405, 'GET, HEAD']);
  });
});
