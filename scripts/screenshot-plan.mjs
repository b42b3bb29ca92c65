#!/usr/bin/env node
// Makes the screenshots of docs/reading-a-plan.md: a plan in a colour terminal
// (docs/images/plan-terminal.png) and the pull-request comment as GitHub renders it
// (docs/images/plan-pr-comment.png). A copy of examples/ is applied to the embedded local API, then
// edited as a pull request would (a word changed, a post moved and edited, an image replaced, an
// account's own text changed, a post added); `postsync plan` runs under `script` (a terminal, so
// it prints colours), and `postsync calendar` writes the comment's Markdown as the job summary.
// The Markdown goes through cmark-gfm with GitHub's extensions (apt-get install cmark-gfm, the
// renderer GitHub's is built on), the ANSI colours through the small converter below; Debian's
// Chromium (playwright-core drives it) photographs both. Not part of npm test.
// Usage: npm run build && node scripts/screenshot-plan.mjs [--out-dir docs/images]
import { execFileSync } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { CHROMIUM_PATH, launchChromium } from './chromium.mjs';

const root = new URL('../', import.meta.url).pathname;
const { values: flags } = parseArgs({ options: { 'out-dir': { type: 'string', default: join(root, 'docs/images') }, chromium: { type: 'string', default: CHROMIUM_PATH } } });

const escapeHtml = (text) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The SGR codes picocolors writes, as CSS: on (`1`) and off (`22`) pairs. */
const SGR = { 1: 'font-weight:bold', 2: 'opacity:.6', 4: 'text-decoration:underline', 9: 'text-decoration:line-through', 31: 'color:#ff7b72', 32: 'color:#7ee787', 33: 'color:#e3b341', 35: 'color:#d2a8ff' };
const OFF = { 22: [1, 2], 24: [4], 29: [9], 39: [31, 32, 33, 35] };

/** ANSI-coloured text as HTML: each run in a span with the styles on at its start. */
function ansiToHtml(text) {
  const on = new Set();
  let html = '';
  for (const part of text.split(/(\u001b\[[0-9;]*m)/)) {
    const codes = /^\u001b\[([0-9;]*)m$/.exec(part);
    if (codes === null) {
      const style = [...on].map((code) => SGR[code]).filter(Boolean).join(';');
      html += style === '' ? escapeHtml(part) : `<span style="${style}">${escapeHtml(part)}</span>`;
      continue;
    }
    for (const code of codes[1].split(';').map(Number)) {
      if (code === 0) on.clear();
      else if (OFF[code]) for (const off of OFF[code]) on.delete(off);
      else if (SGR[code]) on.add(code);
    }
  }
  return html;
}

/** Enough of GitHub's comment style to judge the layout: its fonts, table borders, code and details. */
const GITHUB_CSS = `body{margin:0;background:#fff;font:14px/1.5 -apple-system,"Segoe UI","Noto Sans",Helvetica,Arial,sans-serif;color:#1f2328}
.comment{max-width:880px;margin:16px;border:1px solid #d1d9e0;border-radius:6px;padding:16px 24px}
h3{font-size:1.25em;margin:8px 0 16px}h4{font-size:1em;margin:24px 0 16px}
table{border-collapse:collapse;margin:0 0 16px;display:block;overflow:auto}td,th{border:1px solid #d1d9e0;padding:6px 13px}tr:nth-child(2n){background:#f6f8fa}
code{font:85% ui-monospace,SFMono-Regular,Menlo,monospace;background:#818b981f;padding:.2em .4em;border-radius:6px}
details{margin:0 0 8px}summary{cursor:pointer}summary p{display:inline;margin:0}del{color:#82071e;background:#ffebe9}ins{color:#116329;background:#dafbe1;text-decoration:none}
blockquote{margin:0 0 16px;padding:0 1em;color:#59636e;border-left:.25em solid #d1d9e0}`;

const work = await mkdtemp(join(tmpdir(), 'postsync-plan-screenshot-'));
try {
  const project = join(work, 'examples');
  await cp(join(root, 'examples'), project, { recursive: true, filter: (source) => !source.includes('/.postsync') });
  const cli = [join(root, 'dist/cli/main.js'), '-C', project, '--local'];
  const postsync = (args, env = {}) => execFileSync(process.execPath, [...cli, ...args], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', ...env } });
  postsync(['apply', '--yes']);

  // The pull request.
  const edit = async (file, change) => writeFile(join(project, file), change(await readFile(join(project, file), 'utf8')));
  await edit('posts/2027-01/customer-quote.md', (text) => text.replace('makes Mondays bearable.', 'makes Mondays and Tuesdays bearable.').replace('media/cover.png', 'media/team.png'));
  await edit('posts/2027-01/brew-guide.md', (text) => text.replace('scheduledAt: 2027-01-11 18:00', 'scheduledAt: 2027-01-12 19:30').replace(/\n---\n([^\n]*?)\b(\w+)\b/, '\n---\n$1$2 (updated)'));
  await edit('posts/2027-01/launch-day.md', (text) => text.replace('In every café from today.', 'In every café and online from today.'));
  await writeFile(
    join(project, 'posts/2027-01/iced-launch.md'),
    '---\nscheduledAt: 2027-01-21 12:00\ntargets: [brand-photo]\nmedia: [media/beans.jpg]\n---\nIced Winter Solstice: cold brew of our seasonal roast, with orange peel. One week only, in every café.\n',
  );

  // The terminal: `script` gives the plan a terminal, so it prints in colour.
  const shell = [process.execPath, ...cli, 'plan'].map((word) => `'${word.replace(/'/g, "'\\''")}'`).join(' ');
  const coloured = execFileSync('script', ['-qec', shell, '/dev/null'], { encoding: 'utf8', env: { ...process.env, NO_COLOR: undefined, COLUMNS: '110', TERM: 'xterm-256color' } }).replace(/\r\n/g, '\n');
  const terminalPage = join(work, 'terminal.html');
  await writeFile(terminalPage, `<!doctype html><meta charset="utf-8"><style>body{margin:0;background:#0d1117}pre{display:inline-block;margin:0;padding:16px 20px;color:#e6edf3;font:13px/1.45 ui-monospace,"DejaVu Sans Mono",monospace;white-space:pre}</style><pre>$ postsync plan\n${ansiToHtml(coloured)}</pre>`);

  // The pull-request comment: the calendar diff `postsync calendar` writes inside GitHub Actions.
  const summary = join(work, 'summary.md');
  // A pull request's commit: the comment's thumbnails are GitHub's links to the files at it, which
  // the browser below answers from the project (as GitHub answers a reader with access).
  const github = { GITHUB_SERVER_URL: 'https://github.com', GITHUB_REPOSITORY: 'northwind/content', GITHUB_SHA: 'c0ffee'.padEnd(40, '0') };
  postsync(['calendar', '--out', join(work, 'calendar')], { GITHUB_ACTIONS: 'true', GITHUB_WORKSPACE: project, GITHUB_STEP_SUMMARY: summary, ...github });
  const commentHtml = execFileSync('cmark-gfm', ['-e', 'table', '-e', 'strikethrough', '-e', 'autolink', '-e', 'tagfilter', '--unsafe'], { input: await readFile(summary, 'utf8'), encoding: 'utf8' });
  const commentPage = join(work, 'comment.html');
  await writeFile(commentPage, `<!doctype html><meta charset="utf-8"><style>${GITHUB_CSS}</style><div class="comment">${commentHtml}</div>`);

  await mkdir(flags['out-dir'], { recursive: true });
  const browser = await launchChromium({ executablePath: flags.chromium, viewport: { width: 940, height: 600 } });
  try {
    const tab = await browser.context.newPage();
    await tab.goto(pathToFileURL(terminalPage).href);
    await tab.locator('pre').screenshot({ path: join(flags['out-dir'], 'plan-terminal.png') });
    const blob = `${github.GITHUB_SERVER_URL}/${github.GITHUB_REPOSITORY}/blob/${github.GITHUB_SHA}/`;
    await tab.route(`${blob}**`, async (route) => route.fulfill({ body: await readFile(join(project, decodeURIComponent(new URL(route.request().url()).pathname.slice(new URL(blob).pathname.length)))) }));
    await tab.goto(pathToFileURL(commentPage).href);
    await tab.waitForFunction(() => [...document.images].every((image) => image.complete));
    // Open the folded details of the first two posts, as a reviewer would.
    await tab.evaluate(() => [...document.querySelectorAll('details')].slice(0, 2).forEach((details) => details.setAttribute('open', '')));
    await tab.locator('.comment').screenshot({ path: join(flags['out-dir'], 'plan-pr-comment.png') });
  } finally {
    await browser.close();
  }
  process.stdout.write(`Wrote ${join(flags['out-dir'], 'plan-terminal.png')} and ${join(flags['out-dir'], 'plan-pr-comment.png')}\n`);
} finally {
  await rm(work, { recursive: true, force: true });
}
