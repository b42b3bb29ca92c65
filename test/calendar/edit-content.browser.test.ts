import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, DEMO_API_KEY } from '../../src/emulator/index.js';
import { runCli } from '../helpers/cli.js';
import { useEmulator } from '../helpers/emulator.js';
import { testdir } from '../helpers/testdir.js';
import { calendarAddress, startWatchProcess, type WatchProcess } from '../watch/watch-process.js';
import { BROWSER_MISSING, openPage, screenshot, useBrowser } from './browser.js';

const browser = useBrowser();
const emulator = useEmulator();

const CONFIG = `timezone: Europe/Berlin\naccounts:\n  photo: ${DEMO_ACCOUNTS.photo}\n  video: ${DEMO_ACCOUNTS.video}\n  short: ${DEMO_ACCOUNTS.short}\nvars:\n  product: Roast No. 5\n`;
/** A photo draft without its photo: not ready ("needs at least 1 image or video"). */
const ROAST = '---\ndraft: true\ntargets: [photo]\n---\nA new roast\n';
/** On the remote (applied): an account with its own text, a text option with a comma, a list option. */
const CLIP = [
  '---',
  'scheduledAt: 2027-02-04 10:00',
  'targets:',
  '  - account: video',
  '    content: "Watch the roast" # its own',
  '    options: { vidATitle: "Roast, brew", vidATags: [beans] }',
  'media: [media/launch.mp4]',
  '---',
  'The whole story of the roast, told at length for every account that has no text of its own.',
  '',
].join('\n');
/** An account written as a block mapping without `options:`, missing the title its platform requires. */
const TEASER = '---\nscheduledAt: 2027-02-05 10:00\ntargets:\n  - account: video\n    content: "Teaser"\nmedia: [media/launch.mp4]\n---\nTeaser body\n';

describe.skipIf(BROWSER_MISSING)('editing a post\'s media, accounts\' own texts and list options in watch --calendar', () => {
  let dir: string;
  let watch: WatchProcess;
  let url: string;
  const env = () => ({ POSTSYNC_API_KEY: DEMO_API_KEY });
  const file = (name: string) => readFile(join(dir, name), 'utf8');
  const editorOf = async (page: Page, key: string) => {
    // A save closes the editor once the server answered, on the post's details, which cover the tray: Escape closes them.
    await page.locator('#details form.editor').waitFor({ state: 'detached' });
    if (await page.locator('#details').isVisible()) await page.keyboard.press('Escape');
    await page.locator(`.card[data-key="${key}"]:not([data-ghost])`).first().click();
    await page.locator('#details [data-action="edit"]').click();
    await page.locator('#details form.editor').waitFor();
  };
  const preview = (page: Page, account: string) => page.locator(`#details .preview[data-account="${account}"]`);

  beforeAll(async () => {
    dir = await testdir({
      'postsync.yaml': CONFIG,
      'media/launch.mp4': await readFile(new URL('../../examples/media/launch.mp4', import.meta.url)),
      'posts/roast.md': ROAST,
      'posts/clip.md': CLIP,
    });
    expect((await runCli(['--api-url', emulator().baseUrl, 'apply', '--yes'], { cwd: dir, env: env() })).code).toBe(0);
    await writeFile(join(dir, 'posts/teaser.md'), TEASER);
    watch = startWatchProcess(['-C', dir, '--api-url', emulator().baseUrl, 'watch', '--calendar', '--refresh', '3600'], { cwd: dir, env: env() });
    url = await calendarAddress(watch);
  }, 60_000);
  afterAll(async () => {
    expect((await watch?.stop('SIGINT'))?.code).toBe(0);
  });

  it('adds a photo from the file chooser with its alt text: the file goes under media/, named from the post, and `media:` gets one line; the draft becomes ready', async () => {
    const { page, errors } = await openPage(browser(), `${url}#2027-02`);
    await editorOf(page, 'roast');
    await page.locator('#details [data-media-add]').setInputFiles(new URL('../../examples/media/beans.jpg', import.meta.url).pathname);
    await page.locator('#details [data-media-alt="0"]').fill('Roasted beans, still warm');
    await expect.poll(() => preview(page, DEMO_ACCOUNTS.photo).locator('.thumb img').count()).toBe(1);
    // Tall enough for the whole editor: the panel scrolls on its own.
    await page.setViewportSize({ width: 1440, height: 1500 });
    await screenshot(page, 'calendar-editor-media-1440');
    await page.setViewportSize({ width: 390, height: 1700 });
    await screenshot(page, 'calendar-editor-media-390');
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.locator('#details button[type="submit"]').click();
    await expect.poll(() => file('posts/roast.md'), { timeout: 10_000 }).toBe(ROAST.replace('---\nA new', 'media: [{ path: media/roast.jpg, alt: "Roasted beans, still warm" }]\n---\nA new'));
    expect((await readFile(join(dir, 'media/roast.jpg'))).equals(await readFile(new URL('../../examples/media/beans.jpg', import.meta.url)))).toBe(true);
    // The watch plans again: the card shows the photo, and the draft is ready.
    await expect.poll(() => page.locator('.card[data-key="roast"] .card-thumb').count(), { timeout: 10_000 }).toBe(1);
    // The editor closed on the post's details, which show it ready.
    await expect.poll(() => page.locator('#details .details-head').textContent(), { timeout: 10_000 }).toMatch(/(?<!not )ready/);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('orders, replaces and removes media in the editor: each save changes the `media:` line only', async () => {
    const { page, errors } = await openPage(browser(), `${url}#2027-02`);
    const withMedia = (media: string) => ROAST.replace('---\nA new', `media: ${media}\n---\nA new`);
    const alt = '{ path: media/roast.jpg, alt: "Roasted beans, still warm" }';
    await editorOf(page, 'roast');
    // A file dropped on the media list, as from a file manager.
    const bytes = [...(await readFile(new URL('../../examples/media/team.png', import.meta.url)))];
    const dropped = await page.evaluateHandle((data) => {
      // In the page: the DOM's DataTransfer (the tests are typed for Node).
      const transfer = new (globalThis as unknown as { DataTransfer: new () => { items: { add(file: File): void } } }).DataTransfer();
      transfer.items.add(new File([new Uint8Array(data)], 'team.png', { type: 'image/png' }));
      return transfer;
    }, bytes);
    await page.locator('#details [data-field="media"]').dispatchEvent('drop', { dataTransfer: dropped });
    await page.locator('#details [data-media-up="1"]').click();
    // The keyboard stays on the file moved: now first, its ↑ is off, its ↓ has the focus.
    expect(await page.locator('#details [data-media-down="0"]').evaluate((button) => button === button.ownerDocument.activeElement)).toBe(true);
    expect(await page.locator('#details .edit-media-item .mono').allTextContents()).toEqual(['team.png · new: added on save', 'media/roast.jpg']);
    await page.locator('#details button[type="submit"]').click();
    await expect.poll(() => file('posts/roast.md'), { timeout: 10_000 }).toBe(withMedia(`[media/roast.png, ${alt}]`));
    await editorOf(page, 'roast');
    await page.locator('#details [data-media-remove="1"]').click();
    await page.locator('#details [data-media-replace="0"]').setInputFiles(new URL('../../examples/media/beans.jpg', import.meta.url).pathname);
    await page.locator('#details button[type="submit"]').click();
    // The same bytes as media/roast.jpg: that file, not a copy.
    await expect.poll(() => file('posts/roast.md'), { timeout: 10_000 }).toBe(withMedia('[media/roast.jpg]'));
    expect(errors).toEqual([]);
    await page.close();
  });

  it('shows why the server refuses a file an account cannot take, and writes nothing', async () => {
    const { page, errors } = await openPage(browser(), `${url}#2027-02`);
    await editorOf(page, 'clip');
    const before = await file('posts/clip.md');
    await page.locator('#details [data-media-add]').setInputFiles(new URL('../../examples/media/team.png', import.meta.url).pathname);
    await page.locator('#details button[type="submit"]').click();
    await expect.poll(() => page.locator('#details .edit-warning').textContent()).toMatch(/^video takes at most 1 file a post \(this one has 2\); video takes no images \(team\.png\)\. The plan would block this post\./);
    await page.locator('#details button[type="submit"]').click();
    await expect.poll(() => page.locator('#details .edit-warning').textContent(), { timeout: 10_000 }).toBe('"team.png" cannot go on this post: team.png is image/png; video (vidA) accepts no images (rules.media.images.contentTypes). Choose another file, or leave out the accounts that cannot take it.');
    expect(await file('posts/clip.md')).toBe(before);
    await expect(readFile(join(dir, 'media/clip.png'))).rejects.toThrow();
    expect(errors).toEqual([]);
    await page.close();
  });

  it('shows an account\'s own text and remote status in the editor\'s preview, and saves a new own text as `content:`', async () => {
    const { page, errors } = await openPage(browser(), `${url}#2027-02`);
    await editorOf(page, 'clip');
    const video = preview(page, DEMO_ACCOUNTS.video);
    await expect.poll(() => video.locator('[data-field="caption"]').textContent(), { timeout: 10_000 }).toBe('Watch the roast');
    expect(await video.locator('.length').textContent()).toMatch(/^15 \/ [\d,]+ .*this account's own text/);
    expect(await video.locator('.badge').textContent()).not.toBe('not on the remote');
    await page.locator(`#details [data-own-text="${DEMO_ACCOUNTS.video}"]`).fill('Watch {{ product }} roast');
    await expect.poll(() => video.locator('[data-field="caption"]').textContent(), { timeout: 10_000 }).toBe('Watch Roast No. 5 roast');
    await page.locator('#details button[type="submit"]').click();
    await expect.poll(() => file('posts/clip.md'), { timeout: 10_000 }).toBe(CLIP.replace('"Watch the roast"', '"Watch {{ product }} roast"'));
    expect(errors).toEqual([]);
    await page.close();
  });

  it('edits a list option one item per line, and a text option with a comma as a text', async () => {
    const { page, errors } = await openPage(browser(), `${url}#2027-02`);
    await editorOf(page, 'clip');
    const title = page.locator(`#details .edit-options[data-account="${DEMO_ACCOUNTS.video}"] [data-option="vidATitle"]`);
    expect(await title.isDisabled()).toBe(false);
    await title.fill('Roast, brew, sip');
    const tags = page.locator(`#details .edit-options[data-account="${DEMO_ACCOUNTS.video}"] [data-option="vidATags"]`);
    expect(await tags.inputValue()).toBe('beans');
    await tags.fill('beans\nsingle origin, dark\n');
    // The preview shows the options as typed: the title, the tags.
    const video = preview(page, DEMO_ACCOUNTS.video);
    expect(await video.locator('.preview-title').textContent()).toBe('Roast, brew, sip');
    expect(await video.locator('.options').textContent()).toBe('vidATitle: Roast, brew, sipvidATags: beans, single origin, dark');
    await page.setViewportSize({ width: 390, height: 1500 });
    await screenshot(page, 'calendar-editor-accounts-390');
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.locator('#details button[type="submit"]').click();
    await expect.poll(() => file('posts/clip.md'), { timeout: 10_000 }).toBe(CLIP.replace('"Watch the roast"', '"Watch {{ product }} roast"').replace('{ vidATitle: "Roast, brew", vidATags: [beans] }', '{ vidATitle: "Roast, brew, sip", vidATags: [beans, "single origin, dark"] }'));
    expect(errors).toEqual([]);
    await page.close();
  });

  it('adds an option to an account written as a block mapping without options: under that account', async () => {
    const { page, errors } = await openPage(browser(), `${url}#2027-02`);
    await editorOf(page, 'teaser');
    await page.locator(`#details [data-option-name="${DEMO_ACCOUNTS.video}"]`).fill('vidATitle');
    await page.locator(`#details [data-option-value="${DEMO_ACCOUNTS.video}"]`).fill('The teaser');
    await page.locator('#details button[type="submit"]').click();
    await expect.poll(() => file('posts/teaser.md'), { timeout: 10_000 }).toBe(TEASER.replace('    content: "Teaser"\n', '    content: "Teaser"\n    options: { vidATitle: The teaser }\n'));
    const result = await runCli(['--api-url', emulator().baseUrl, 'validate'], { cwd: dir, env: env() });
    expect([result.code, result.stdout + result.stderr]).toEqual([0, expect.not.stringContaining('teaser.md')]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('warns before saving an account that cannot take the post\'s media, and saves on a second click', async () => {
    const { page, errors } = await openPage(browser(), `${url}#2027-02`);
    await editorOf(page, 'roast');
    const before = await file('posts/roast.md');
    await page.locator(`#details input[data-account="${DEMO_ACCOUNTS.short}"]`).check();
    await page.locator('#details button[type="submit"]').click();
    await expect.poll(() => page.locator('#details .edit-warning:not([hidden])').textContent()).toMatch(/^short takes no images \(media\/roast\.jpg\)\. The plan would block this post\./);
    expect(await file('posts/roast.md')).toBe(before);
    await page.locator('#details button[type="submit"]').click();
    await expect.poll(() => file('posts/roast.md'), { timeout: 10_000 }).toBe(before.replace('targets: [photo]', 'targets: [photo, short]'));
    expect(errors).toEqual([]);
    await page.close();
  });
});
