#!/usr/bin/env node
// Calendar benchmark, at 10,000 posts (bench/lib/project.mjs: files on disk, the same posts remote,
// state present): `postsync calendar` next to `postsync plan` on the same project, warm
// (.postsync/cache filled by warm-up runs) and cold (--no-cache); then the page's first paint in
// headless Chromium: the page that run wrote, and a page of 10,000 scheduled posts in one
// quarter (about 110 a day, two accounts each, 300-character texts) built in-process; last,
// `watch --calendar` on a copy of examples/, then on the project of 10,000 posts: from a save to
// the open page showing it.
// The emulator runs as its own `postsync serve` process; plan and calendar runs alternate.
// Usage: npm run build && node bench/calendar/run.mjs [--posts 10000] [--runs 3] [--cold-runs 1] [--paints 5] [--saves 8]
// Progress on stderr; the last stdout line is the results as JSON.
import { cp, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { runMeasured } from '../lib/measure.mjs';
import { bin, fromDist, root } from '../lib/paths.mjs';
import { DEMO_ACCOUNTS, DEMO_API_KEY, seedRemote, writeProject } from '../lib/project.mjs';
import { startServe } from '../lib/serve.mjs';
import { CHROMIUM_PATH, launchChromium } from '../../scripts/chromium.mjs';
import { startWatchCalendar } from '../lib/watch-calendar.mjs';
import { loadAverage, note, round, summary } from '../lib/stats.mjs';

const { values: flags } = parseArgs({ options: { posts: { type: 'string', default: '10000' }, runs: { type: 'string', default: '3' }, 'cold-runs': { type: 'string', default: '1' }, paints: { type: 'string', default: '5' }, saves: { type: 'string', default: '8' }, chromium: { type: 'string', default: CHROMIUM_PATH } } });
const POSTS = Number(flags.posts);
const env = { POSTSYNC_API_KEY: DEMO_API_KEY };

const work = await mkdtemp(join(tmpdir(), 'postsync-bench-calendar-'));
const server = await startServe({ dir: work });
try {
  const dir = join(work, 'project');
  await writeProject(dir, { posts: POSTS });
  const written = Date.now();
  await seedRemote(dir, { baseUrl: server.baseUrl });
  note(`${POSTS} posts written and seeded`);
  const out = join(work, 'page');
  const plan = (extra = []) => runMeasured([bin, '-C', dir, '--api-url', server.baseUrl, ...extra, 'plan'], { env });
  const calendar = (extra = []) => runMeasured([bin, '-C', dir, '--api-url', server.baseUrl, ...extra, 'calendar', '--out', out], { env });
  // Files changed in the last 2 s are never trusted by their stamp: wait, as bench/plan does.
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, written + 2100 - Date.now())));
  // Warm-up: the first runs fill .postsync/cache (summaries for plan, whole readings for calendar).
  for (const run of [plan, calendar, calendar, plan]) await run();

  const runs = { plan: [], calendar: [], planCold: [], calendarCold: [] };
  for (let run = 0; run < Number(flags.runs); run++) {
    runs.plan.push(await plan());
    runs.calendar.push(await calendar());
  }
  for (let run = 0; run < Number(flags['cold-runs']); run++) {
    runs.planCold.push(await plan(['--no-cache']));
    runs.calendarCold.push(await calendar(['--no-cache']));
  }
  const figures = (list) => ({ ms: summary(list.map((r) => r.ms)), cpuMs: summary(list.map((r) => r.cpuMs)), peakRssMiB: summary(list.map((r) => r.peakRssMiB), 1) });
  const ratio = (a, b, key) => round(figures(a)[key].median / figures(b)[key].median, 2);
  const pairedRatio = (a, b, key) => summary(a.map((run, index) => run[key] / b[index][key]), 2);
  const result = {
    posts: POSTS,
    plan: figures(runs.plan),
    calendar: figures(runs.calendar),
    calendarToPlan: { wall: ratio(runs.calendar, runs.plan, 'ms'), cpu: ratio(runs.calendar, runs.plan, 'cpuMs') },
    // Each calendar run over the plan run just before it: a machine whose speed drifts during the bench moves both alike.
    pairedCalendarToPlan: { wall: pairedRatio(runs.calendar, runs.plan, 'ms'), cpu: pairedRatio(runs.calendar, runs.plan, 'cpuMs') },
    ...(runs.planCold.length === 0 ? {} : { planCold: figures(runs.planCold), calendarCold: figures(runs.calendarCold), coldCalendarToPlan: { wall: ratio(runs.calendarCold, runs.planCold, 'ms'), cpu: ratio(runs.calendarCold, runs.planCold, 'cpuMs') } }),
    pageBytes: (await stat(join(out, 'index.html'))).size,
  };

  const stress = join(work, 'stress.html');
  await writeFile(stress, await stressPage());
  result.stressPageBytes = (await stat(stress)).size;
  const paints = await firstPaints([pathToFileURL(join(out, 'index.html')).href, pathToFileURL(stress).href], Number(flags.paints));
  result.firstPaint = { projectPage: paints[0], scheduledPage: paints[1] };
  const examples = join(work, 'examples');
  await cp(join(root, 'examples'), examples, { recursive: true, filter: (source) => !source.includes('/.postsync') });
  result.watchSaveToPageMs = summary(await watchLatencies(Number(flags.saves), { dir: examples, month: '2027-01', key: '2027-01/customer-quote', file: 'posts/2027-01/customer-quote.md', before: '"The only coffee' }));
  // The same on the project of POSTS posts and its remote (the post saved is a scheduled one, in January 2031).
  result.watchSaveToPageMsAtScale = summary(await watchLatencies(Number(flags.saves), { dir, args: ['--api-url', server.baseUrl], env, month: '2031-01', key: 'batch-000/post-00000', file: 'posts/batch-000/post-00000.md', before: 'Post 0 (v1):' }));
  result.loadAverage = loadAverage();
  process.stdout.write(`${JSON.stringify(result)}\n`);
} finally {
  await server.stop();
  await rm(work, { recursive: true, force: true });
}

/**
 * Opens each page `times` times in a fresh tab of one Chromium: the time from navigation start to
 * the first paint, to the calendar drawn (the page's `postsync-calendar-drawn` mark) and to the
 * frame after it (`postsync-calendar-painted`), and the cards the page drew.
 */
async function firstPaints(urls, times) {
  const browser = await launchChromium({ executablePath: flags.chromium });
  const { context } = browser;
  try {
    const results = [];
    for (const url of urls) {
      const samples = [];
      for (let time = 0; time < times; time++) {
        const page = await context.newPage();
        await page.goto(url);
        await page.waitForFunction(() => performance.getEntriesByName('postsync-calendar-painted').length > 0);
        samples.push(await page.evaluate(() => ({
          firstPaint: performance.getEntriesByName('first-paint')[0]?.startTime ?? NaN,
          drawn: performance.getEntriesByName('postsync-calendar-drawn')[0].startTime,
          painted: performance.getEntriesByName('postsync-calendar-painted')[0].startTime,
          cards: document.querySelectorAll('.card').length,
        })));
        await page.close();
      }
      results.push({ firstPaintMs: summary(samples.map((s) => s.firstPaint)), calendarDrawnMs: summary(samples.map((s) => s.drawn)), calendarPaintedMs: summary(samples.map((s) => s.painted)), cards: samples[0].cards });
    }
    return results;
  } finally {
    await browser.close();
  }
}

/** A page of 10,000 scheduled posts in January to March 2031, made by the model builder and the page renderer. */
async function stressPage() {
  const { buildCalendarModel } = await fromDist('src/calendar/build-model.js');
  const { renderCalendarPage } = await fromDist('src/calendar/page.js');
  const { postCard, captionsOf } = await fromDist('src/calendar/post-card.js');
  const { zonePlacer } = await fromDist('src/calendar/zone-placer.js');
  const text = (i) => `Post ${i}: ${'Fresh beans, a new roast and a short note about our café. '.repeat(5)}`.slice(0, 300);
  const posts = Array.from({ length: 10_000 }, (_, i) => ({
    key: `stress/post-${String(i).padStart(5, '0')}`,
    file: `posts/stress/post-${String(i).padStart(5, '0')}.md`,
    shape: {
      content: text(i),
      scheduledAt: new Date(Date.UTC(2031, 0, 1, 6) + Math.floor((i * 90 * 86_400_000) / 10_000)).toISOString(),
      targets: [{ socialAccountId: DEMO_ACCOUNTS.photo, options: { format: 'feed' } }, { socialAccountId: DEMO_ACCOUNTS.short, contentOverride: `Short ${i}`, options: { shortBAllowComment: true } }],
      media: [],
    },
    shapeHash: String(i),
    media: [],
    targetLabels: ['brand-photo', 'brand-short'],
  }));
  const model = buildCalendarModel({
    now: new Date('2030-12-20T12:00:00Z'),
    timezone: 'Europe/Berlin',
    aliases: { 'brand-photo': DEMO_ACCOUNTS.photo, 'brand-short': DEMO_ACCOUNTS.short },
    target: 'Target: local API (bench)',
    cards: posts.map((post) => postCard(post, { place: zonePlacer('Europe/Berlin'), captions: captionsOf(new Map()), probes: new Map() })),
    plan: null,
    live: { get: () => undefined, briefs: new Map() },
    state: null,
    capabilities: new Map(),
    diagnostics: [],
    mediaPrefix: 'media/',
  });
  return renderCalendarPage(model);
}

/**
 * `watch --calendar` with the page open in Chromium: for each save of one post's text, the time
 * from writing the file to the open page showing the new text (a MutationObserver in the page
 * takes the time; both clocks are this machine's). `watched`: the project, the watch's extra
 * arguments and environment, the month the page opens on, and the post saved (its key, its file,
 * and the text its saves put a mark before).
 */
async function watchLatencies(saves, watched) {
  const { dir, args = [], env: extraEnv = {}, month, key, file: postFile, before } = watched;
  const browser = await launchChromium({ executablePath: flags.chromium });
  const watch = await startWatchCalendar({ dir, args, env: extraEnv });
  try {
    const { url } = watch;
    const page = await browser.context.newPage();
    await page.goto(`${url}#${month}`);
    const selector = `.card[data-key="${key}"] .card-text`;
    await page.waitForSelector(selector, { timeout: 120_000 });
    const file = join(dir, postFile);
    const original = await readFile(file, 'utf8');
    const latencies = [];
    for (let save = 0; save < saves; save++) {
      const text = `Save ${save}:`;
      await page.evaluate(({ selector, text }) => {
        globalThis.shown = new Promise((resolve) => {
          const observer = new MutationObserver(() => {
            if (document.querySelector(selector)?.textContent?.startsWith(text)) {
              observer.disconnect();
              resolve(Date.now());
            }
          });
          observer.observe(document.body, { subtree: true, childList: true, characterData: true });
        });
      }, { selector, text });
      // Quiet time between saves, as a person types and saves.
      await new Promise((resolve) => setTimeout(resolve, 400));
      const saved = Date.now();
      await writeFile(file, original.replace(before, `${text} ${before}`));
      latencies.push((await page.evaluate(() => globalThis.shown)) - saved);
    }
    return latencies;
  } finally {
    await browser.close();
    await watch.stop();
  }
}
