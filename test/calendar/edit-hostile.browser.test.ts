import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CalendarServer, SERVED_MEDIA_PREFIX } from '../../src/calendar/live-server.js';
import { PostFileEditor } from '../../src/calendar/post-file-editor.js';
import { testdir } from '../helpers/testdir.js';
import { BROWSER_MISSING, openPage, useBrowser } from './browser.js';
import { desired, shape } from '../helpers/fixtures.js';
import { calendarFor } from './fixtures.js';

const browser = useBrowser();
const servers: CalendarServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

/** Markup a pull request can put in a file name and a post's text: each would set `window.pwned` if the page parsed it. */
const NAME = '<img src=x onerror="window.pwned=1">';
const TEXT = '<script>window.pwned=2</script><img src=x onerror="window.pwned=3"> --- </textarea><img src=x onerror="window.pwned=4">';
const FILE = `---\nscheduledAt: "2027-02-03 09:00"\ntargets: [photo]\n---\n${TEXT}\n`;

describe.skipIf(BROWSER_MISSING)('attack: markup in a post file name and text, in the editor', () => {
  it('shows them as text in the editor, its preview and the message of a file changed on disk: nothing runs', async () => {
    const dir = await testdir({ 'postsync.yaml': 'timezone: Europe/Berlin\n', [`posts/${NAME}.md`]: FILE });
    const server = await CalendarServer.start({ port: 0, editor: new PostFileEditor(() => ({ root: dir, contentDir: join(dir, 'posts'), vars: {}, hashtags: {}, timezone: 'Europe/Berlin' })) });
    servers.push(server);
    const post = desired(NAME, shape({ content: TEXT, scheduledAt: '2027-02-03T08:00:00.000Z' }));
    server.update({ model: calendarFor({ posts: [post], mediaPrefix: SERVED_MEDIA_PREFIX }), thumbnails: new Map() });
    const { page, errors } = await openPage(browser(), `${server.url}#2027-02`);
    await page.locator('.card').first().click();
    await page.locator('#details [data-action="edit"]').click();
    await expect.poll(() => page.locator('#edit-text').inputValue(), { timeout: 10_000 }).toBe(TEXT);
    expect(await page.locator('#details [data-field="file"]').textContent()).toBe(`posts/${NAME}.md`);
    await page.locator('#edit-text').fill(`${TEXT} edited`);
    await writeFile(join(dir, `posts/${NAME}.md`), FILE.replace(TEXT, `${TEXT} saved elsewhere`));
    await page.locator('#details button[type="submit"]').click();
    await expect.poll(() => page.locator('#details .edit-message').textContent(), { timeout: 10_000 }).toBe(`posts/${NAME}.md changed on disk since this page read it: nothing was written. Here is the file as it is now; make the edit again on it.`);
    expect(await page.evaluate(() => (globalThis as { pwned?: number }).pwned)).toBeUndefined();
    expect(await page.locator('#details img, #details script').count()).toBe(0);
    expect(await readFile(join(dir, `posts/${NAME}.md`), 'utf8')).toBe(FILE.replace(TEXT, `${TEXT} saved elsewhere`));
    expect(errors).toEqual([]);
    await page.close();
  });
});
