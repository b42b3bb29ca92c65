#!/usr/bin/env node
// Editing in `watch --calendar`, at 10,000 posts (bench/lib/project.mjs: files on disk, the same
// posts remote, state present): a card dragged with the mouse in headless Chromium to another day
// and hour of the week view, then back, `--drops` times. For each drop: the time from the drop
// (the page's `drop` event) to the file written (the bench's fs.watch of the post file sees it
// change) and to the page updated (a MutationObserver sees the card in its new place, which the
// watch sends after planning the file again). Both clocks are this machine's (Date.now()). Then,
// for comparison on the same machine and load, the same moves saved as an editor saves (the file
// written by the bench): from the write to the page updated.
// Usage: npm run build && node bench/calendar/edit.mjs [--posts 10000] [--drops 8]
// Progress on stderr; the last stdout line is the results as JSON.
import { watch as watchFile } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DEMO_API_KEY, seedRemote, writeProject } from '../lib/project.mjs';
import { startServe } from '../lib/serve.mjs';
import { CHROMIUM_PATH, launchChromium } from '../../scripts/chromium.mjs';
import { startWatchCalendar } from '../lib/watch-calendar.mjs';
import { loadAverage, note, summary } from '../lib/stats.mjs';

const { values: flags } = parseArgs({ options: { posts: { type: 'string', default: '10000' }, drops: { type: 'string', default: '8' }, chromium: { type: 'string', default: CHROMIUM_PATH } } });
const POSTS = Number(flags.posts);
/** Post 0 of bench/lib/project.mjs: scheduled 2031-01-01 09:00, in the week of Monday 2030-12-30. */
const KEY = 'batch-000/post-00000';
const FILE = 'posts/batch-000/post-00000.md';
const PLACES = [
  { day: '2031-01-02', hour: '14', at: '2031-01-02 14:00' },
  { day: '2031-01-01', hour: '9', at: '2031-01-01 09:00' },
];

const work = await mkdtemp(join(tmpdir(), 'postsync-bench-calendar-edit-'));
const server = await startServe({ dir: work });
try {
  const dir = join(work, 'project');
  await writeProject(dir, { posts: POSTS });
  await seedRemote(dir, { baseUrl: server.baseUrl });
  note(`${POSTS} posts written and seeded`);
  const result = { posts: POSTS, ...(await dropLatencies(dir, Number(flags.drops))), loadAverage: loadAverage() };
  process.stdout.write(`${JSON.stringify(result)}\n`);
} finally {
  await server.stop();
  await rm(work, { recursive: true, force: true });
}

async function dropLatencies(dir, drops) {
  const browser = await launchChromium({ executablePath: flags.chromium });
  const watch = await startWatchCalendar({ dir, args: ['--api-url', server.baseUrl], env: { POSTSYNC_API_KEY: DEMO_API_KEY } });
  try {
    const { url } = watch;
    const page = await browser.context.newPage();
    // Tall enough for the week's hours, 24 cards at 09:00 among them: a drag that had to scroll would be dropped nowhere.
    await page.setViewportSize({ width: 1440, height: 5000 });
    page.on('pageerror', (error) => note(`page error: ${error.message}`));
    await page.goto(`${url}#week-2030-12-30`);
    const card = (place) => `.slot[data-day="${place.day}"][data-hour="${place.hour}"] .card[data-key="${KEY}"]:not([data-ghost])`;
    await page.waitForSelector(`${card(PLACES[1])}[draggable="true"]`, { timeout: 180_000 });
    await page.evaluate(() => document.addEventListener('drop', () => (globalThis.droppedAt = Date.now()), { capture: true }));
    const file = join(dir, FILE);
    const toFile = [];
    const toPage = [];
    const awaitShown = (selector) =>
      page.evaluate((selector) => {
        globalThis.shown = new Promise((resolve) => {
          const observer = new MutationObserver(() => {
            if (document.querySelector(selector) !== null) {
              observer.disconnect();
              resolve(Date.now());
            }
          });
          observer.observe(document.body, { subtree: true, childList: true });
        });
      }, selector);
    for (let drop = 0; drop < drops; drop++) {
      const from = PLACES[(drop + 1) % 2];
      const to = PLACES[drop % 2];
      await awaitShown(card(to));
      // The post file is replaced (written beside it, then renamed over it): its folder is watched.
      const written = new Promise((resolve) => {
        const folder = watchFile(join(dir, 'posts/batch-000'), () => {
          const at = Date.now();
          void readFile(file, 'utf8').then((text) => {
            if (!text.includes(to.at)) return;
            folder.close();
            resolve(at);
          });
        });
      });
      // Quiet time between drops, as a person works.
      await new Promise((resolve) => setTimeout(resolve, 400));
      await page.locator(card(from)).dragTo(page.locator(`.slot[data-day="${to.day}"][data-hour="${to.hour}"]`), { timeout: 60_000 });
      const droppedAt = await page.evaluate(() => globalThis.droppedAt);
      if (droppedAt === undefined) throw new Error(`drop ${drop + 1}: the page saw no drop`);
      await page.evaluate(() => (globalThis.droppedAt = undefined));
      toFile.push((await written) - droppedAt);
      toPage.push((await page.evaluate(() => globalThis.shown)) - droppedAt);
      note(`drop ${drop + 1}: file ${toFile.at(-1)} ms, page ${toPage.at(-1)} ms`);
    }
    const saveToPage = [];
    for (let save = 0; save < drops; save++) {
      const from = PLACES[(save + drops + 1) % 2];
      const to = PLACES[(save + drops) % 2];
      await awaitShown(card(to));
      await new Promise((resolve) => setTimeout(resolve, 400));
      const text = await readFile(file, 'utf8');
      const saved = Date.now();
      await writeFile(file, text.replace(from.at, to.at));
      saveToPage.push((await page.evaluate(() => globalThis.shown)) - saved);
      note(`save ${save + 1}: page ${saveToPage.at(-1)} ms`);
    }
    return { dropToFileMs: summary(toFile), dropToPageMs: summary(toPage), editorSaveToPageMs: summary(saveToPage) };
  } finally {
    await browser.close();
    await watch.stop();
  }
}
