import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BrowserContext } from 'playwright-core';
import { expect } from 'vitest';
import { DEMO_ACCOUNTS, DEMO_API_KEY } from '../../src/emulator/index.js';
import { runCli } from '../helpers/cli.js';
import type { TestEmulator } from '../helpers/emulator.js';
import { testdir } from '../helpers/testdir.js';
import { openPage } from './browser.js';

/** The media of a post to `short` (shortB takes one video and no image). */
export const VIDEO = 'media: [media/clip.mp4]\n';

/** A project of the demo accounts (`photo`, `short`, `video`), an image (media/cover.png), a video (media/clip.mp4) and its posts (under posts/). */
export async function pageProject(posts: Record<string, string>, options: { timezone?: string; extra?: string } = {}): Promise<string> {
  const cover = await readFile(new URL('../../examples/media/cover.png', import.meta.url));
  return testdir({
    'media/clip.mp4': await readFile(new URL('../../examples/media/teaser.mp4', import.meta.url)),
    'postsync.yaml': `timezone: ${options.timezone ?? 'Europe/Berlin'}\naccounts:\n  photo: ${DEMO_ACCOUNTS.photo}\n  short: ${DEMO_ACCOUNTS.short}\n  video: ${DEMO_ACCOUNTS.video}\n${options.extra ?? ''}`,
    'media/cover.png': cover,
    ...Object.fromEntries(Object.entries(posts).map(([path, text]) => [`posts/${path}`, text])),
  });
}

/** A post file: its time (null: a draft), its targets as YAML, its body, and its media (the cover by default). */
export function postFile(scheduledAt: string | null, body: string, options: { targets?: string; media?: string } = {}): string {
  const time = scheduledAt === null ? '' : `scheduledAt: ${scheduledAt}\n`;
  return `---\n${time}targets: ${options.targets ?? '[photo]'}\n${options.media ?? 'media: [media/cover.png]\n'}---\n${body}\n`;
}

/** Runs the CLI on the project against the test's emulator. */
export function projectCli(emulator: () => TestEmulator, dir: string) {
  return (...args: string[]) => runCli(['-C', dir, '--api-url', emulator().baseUrl, ...args], { cwd: dir, env: { POSTSYNC_API_KEY: DEMO_API_KEY } });
}

/** Writes the project's calendar (`postsync calendar --out out`) and returns its page's address. */
export async function writtenCalendar(emulator: () => TestEmulator, dir: string): Promise<string> {
  const made = await projectCli(emulator, dir)('calendar', '--out', join(dir, 'out'));
  expect(made.code, made.stderr).toBe(0);
  return pathToFileURL(join(dir, 'out/index.html')).href;
}

/** Opens a calendar's page with a window this wide. */
export function openAt(context: BrowserContext, url: string, width: number) {
  return openPage(context, url, { width, height: 900 });
}

/** What the tests' page functions (run by page.evaluate) use of an element: the tests are typed without the DOM's types. */
export interface PageElement {
  className: string;
  textContent: string | null;
  clientWidth: number;
  scrollWidth: number;
  clientHeight: number;
  scrollHeight: number;
  parentElement: PageElement | null;
  children: ArrayLike<PageElement>;
  closest(selector: string): PageElement | null;
  getAttribute(name: string): string | null;
  getClientRects(): { length: number };
  getBoundingClientRect(): { left: number; right: number; top: number; bottom: number };
}

/** The page's globals a test's page function uses. */
export interface PageGlobals {
  document: { documentElement: PageElement; querySelectorAll(selector: string): ArrayLike<PageElement> };
  getComputedStyle(element: PageElement): { direction: string };
}
