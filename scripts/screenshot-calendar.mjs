#!/usr/bin/env node
// Makes the README's screenshot of the calendar's month view (docs/images/calendar.png, 1440 px wide) from
// examples/: a copy of the example project is applied to the embedded local API, then edited as a
// pull request would (a post moved, one unscheduled, one edited, a file removed, a post added), so
// the picture shows the plan overlaid; `postsync calendar` writes the page and Debian's Chromium
// (playwright-core drives it) photographs January 2027.
// Usage: npm run build && node scripts/screenshot-calendar.mjs [--out docs/images/calendar.png]
import { execFileSync } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { CHROMIUM_PATH, launchChromium } from './chromium.mjs';

const root = new URL('../', import.meta.url).pathname;
const { values: flags } = parseArgs({ options: { out: { type: 'string', default: join(root, 'docs/images/calendar.png') }, chromium: { type: 'string', default: CHROMIUM_PATH } } });

const work = await mkdtemp(join(tmpdir(), 'postsync-screenshot-'));
try {
  const project = join(work, 'examples');
  await cp(join(root, 'examples'), project, { recursive: true, filter: (source) => !source.includes('/.postsync') });
  const postsync = (...args) => execFileSync(process.execPath, [join(root, 'dist/cli/main.js'), '-C', project, '--local', ...args], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  postsync('apply', '--yes');

  // The pull request.
  const edit = async (file, change) => writeFile(join(project, file), change(await readFile(join(project, file), 'utf8')));
  await edit('posts/2027-01/brew-guide.md', (text) => text.replace('scheduledAt: 2027-01-11 18:00', 'scheduledAt: 2027-01-12 19:30'));
  await edit('posts/2027-01/story-poll.md', (text) => text.replace(/^scheduledAt: .*\n/m, ''));
  await edit('posts/2027-01/customer-quote.md', (text) => text.replace('Mondays bearable.', 'Mondays bearable. Tuesdays too.'));
  await rm(join(project, 'posts/2027-01/weekend-special.md'));
  await writeFile(
    join(project, 'posts/2027-01/iced-launch.md'),
    '---\nscheduledAt: 2027-01-21 12:00\ntargets:\n  - brand-photo\n  - account: brand-short\n    content: "Iced Winter Solstice is back for one week only #coldbrew"\nmedia: [media/teaser.mp4]\n---\nIced Winter Solstice: cold brew of our seasonal roast, with orange peel. One week only, in every café.\n',
  );
  const page = join(work, 'calendar');
  postsync('calendar', '--out', page);

  const browser = await launchChromium({ executablePath: flags.chromium });
  try {
    const tab = await browser.context.newPage();
    await tab.goto(`${pathToFileURL(join(page, 'index.html')).href}#2027-01`);
    await tab.waitForSelector('#view .month');
    await mkdir(dirname(flags.out), { recursive: true });
    await tab.screenshot({ path: flags.out, clip: { x: 0, y: 0, width: 1440, height: 900 } });
  } finally {
    await browser.close();
  }
  process.stdout.write(`Wrote ${flags.out}\n`);
} finally {
  await rm(work, { recursive: true, force: true });
}
