import { constants } from 'node:fs';
import { access, copyFile, mkdir, rename, rm } from 'node:fs/promises';
import { finished } from 'node:stream/promises';
import { dirname, join } from 'node:path';
import { writeFileAtomic } from '../state/atomic.js';
import { openNoFollow } from '../write-guard/anchored-folder.js';
import { guardWrite, namedPathRoot, type WriteRoot } from '../write-guard/guard-write.js';
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
 * own: opened from disk, zipped as a workflow artifact, or served. Every file lands inside `root`
 * (the project, or the --out folder the user named), never through a symbolic link (guardWrite).
 */
export async function writeCalendarPage(outDir: string, model: CalendarModel, thumbnails: ReadonlyMap<string, string>, options: WriteRoot): Promise<WrittenCalendar> {
  const page = join(outDir, 'index.html');
  const media = join(outDir, MEDIA_FOLDER);
  // Both checked before anything is written: a refused folder leaves no half-written calendar.
  await guardWrite(page, options);
  await guardWrite(join(media, 'thumbnail'), options);
  await mkdir(media, { recursive: true });
  await Promise.all([...thumbnails].map(([name, source]) => copyOnce(source, join(outDir, name), options)));
  // Each part is on its way to the disk while the next is made.
  const file = (await openNoFollow(page, { truncate: true, root: options.root })).createWriteStream();
  for (const part of calendarPageParts(model)) file.write(part.toString());
  await finished(file.end());
  return { page, thumbnails: thumbnails.size };
}

/**
 * A thumbnail's name is a hash of its bytes (post-card.ts): one already there is this very image,
 * and is not copied again on every run (a calendar of thousands of images would copy them all).
 * A copy goes to a temporary name first (created anew, never through a link), so a file under the
 * final name is always whole; the rename replaces whatever is at that name.
 */
async function copyOnce(source: string, target: string, options: WriteRoot): Promise<void> {
  await guardWrite(target, options);
  if (await access(target).then(() => true, () => false)) return;
  const temp = `${target}.${process.pid}.tmp`;
  try {
    await rm(temp, { force: true });
    await copyFile(source, temp, constants.COPYFILE_EXCL);
    await rename(temp, target);
  } finally {
    await rm(temp, { force: true });
  }
}

/** Writes the `.gitignore` of a page folder inside the project, so the page is never committed. */
export async function writeCalendarIgnoreFile(outDir: string, options: WriteRoot): Promise<void> {
  await writeFileAtomic(join(outDir, '.gitignore'), '# postsync calendar page: made again by `postsync calendar`\n*\n', options);
}

/** Writes a feed (`renderIcs`) to `file`, atomically: a subscriber never reads half a feed. */
export async function writeFeed(file: string, text: string): Promise<void> {
  const root = namedPathRoot(file);
  await guardWrite(file, root);
  await mkdir(dirname(file), { recursive: true });
  await writeFileAtomic(file, text, root);
}
