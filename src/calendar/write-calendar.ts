import { createWriteStream } from 'node:fs';
import { access, copyFile, mkdir, rename, rm } from 'node:fs/promises';
import { finished } from 'node:stream/promises';
import { dirname, join } from 'node:path';
import { writeFileAtomic } from '../state/atomic.js';
import type { CalendarEntry, CalendarModel } from './model.js';
import { calendarPageParts, type PageOptions } from './page.js';

/** Thumbnails go in this folder next to the page. */
export const MEDIA_FOLDER = 'media/';

export interface WrittenCalendar {
  page: string;
  thumbnails: number;
}

/**
 * Writes the page as `<outDir>/index.html` and copies the images it shows into
 * `<outDir>/media/` (`thumbnails`: name under outDir → project file), so the folder works on its
 * own: opened from disk, zipped as a workflow artifact, or served.
 */
export async function writeCalendarPage(outDir: string, model: CalendarModel<CalendarEntry>, thumbnails: ReadonlyMap<string, string>, options: Pick<PageOptions, 'onPostText'> = {}): Promise<WrittenCalendar> {
  await mkdir(join(outDir, MEDIA_FOLDER), { recursive: true });
  await Promise.all([...thumbnails].map(([name, source]) => copyOnce(source, join(outDir, name))));
  const page = join(outDir, 'index.html');
  // Each part is on its way to the disk while the next is made.
  const file = createWriteStream(page);
  for (const part of calendarPageParts(model, options)) file.write(part);
  await finished(file.end());
  return { page, thumbnails: thumbnails.size };
}

/**
 * A thumbnail's name is a hash of its bytes (post-card.ts): one already there is this very image,
 * and is not copied again on every run (a calendar of thousands of images would copy them all).
 * A copy goes to a temporary name first, so a file under the final name is always whole.
 */
async function copyOnce(source: string, target: string): Promise<void> {
  if (await access(target).then(() => true, () => false)) return;
  const temp = `${target}.${process.pid}.tmp`;
  try {
    await copyFile(source, temp);
    await rename(temp, target);
  } finally {
    await rm(temp, { force: true });
  }
}

/** Writes a feed (`renderIcs`) to `file`, atomically: a subscriber never reads half a feed. */
export async function writeFeed(file: string, text: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await writeFileAtomic(file, text);
}
