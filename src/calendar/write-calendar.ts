import { createWriteStream } from 'node:fs';
import { copyFile, mkdir } from 'node:fs/promises';
import { finished } from 'node:stream/promises';
import { dirname, join } from 'node:path';
import { writeFileAtomic } from '../state/atomic.js';
import type { CalendarModel } from './model.js';
import { calendarPageParts } from './page.js';

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
export async function writeCalendarPage(outDir: string, model: CalendarModel, thumbnails: ReadonlyMap<string, string>): Promise<WrittenCalendar> {
  await mkdir(join(outDir, MEDIA_FOLDER), { recursive: true });
  await Promise.all([...thumbnails].map(([name, source]) => copyFile(source, join(outDir, name))));
  const page = join(outDir, 'index.html');
  // Each part is on its way to the disk while the next is made.
  const file = createWriteStream(page);
  for (const part of calendarPageParts(model)) file.write(part);
  await finished(file.end());
  return { page, thumbnails: thumbnails.size };
}

/** Writes a feed (`renderIcs`) to `file`, atomically: a subscriber never reads half a feed. */
export async function writeFeed(file: string, text: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await writeFileAtomic(file, text);
}
