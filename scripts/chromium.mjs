// Debian's Chromium as the calendar's tests, its benchmark and its screenshot script start it:
// driven by playwright-core (which downloads no browser), headless, with a fresh profile and
// nothing that reaches the network on its own.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

/** POSTSYNC_CHROMIUM, else Debian's package (`apt-get install chromium`). */
export const CHROMIUM_PATH = process.env.POSTSYNC_CHROMIUM ?? '/usr/bin/chromium';

export const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** A browser with a fresh profile (a new --user-data-dir), removed again by `close`. */
export async function launchChromium(options = {}) {
  const profile = await mkdtemp(join(tmpdir(), 'postsync-chromium-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath: options.executablePath ?? CHROMIUM_PATH, headless: true, args: CHROMIUM_FLAGS, viewport: options.viewport ?? { width: 1440, height: 900 } });
  return {
    context,
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}
