import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { compareText } from '../text/ordering.js';
import { CONFIG_FILE_NAMES } from './config-file.js';

/**
 * One calendar of a repository that keeps several: a folder with its own postsync.yaml, and the
 * names of the secrets its workflows read (`POSTSYNC_API_URL`/`POSTSYNC_API_KEY` for the folder
 * the search started from, `…_CLIENTS_ACME` for `clients/acme`).
 */
export interface Calendar {
  /** Relative to the folder searched, forward slashes; `.` for that folder itself. */
  folder: string;
  apiUrlSecret: string;
  apiKeySecret: string;
}

/** `clients/acme-co` → `_CLIENTS_ACME_CO`; `.` → `` (secret names allow only A–Z, 0–9 and `_`). */
export function secretSuffix(folder: string): string {
  if (folder === '.') return '';
  return `_${folder.toUpperCase().replace(/[^A-Z0-9]+/g, '_').replace(/^_+|_+$/g, '')}`;
}

export function calendarAt(folder: string): Calendar {
  const suffix = secretSuffix(folder);
  return { folder, apiUrlSecret: `POSTSYNC_API_URL${suffix}`, apiKeySecret: `POSTSYNC_API_KEY${suffix}` };
}

/**
 * Every folder at or below `root` that holds a postsync.yaml (or .yml), sorted by path. Hidden
 * folders (`.git`, `.postsync`) and `node_modules` are not searched, symlinks are not followed.
 */
export async function findCalendars(root: string): Promise<Calendar[]> {
  const folders: string[] = [];
  const walk = async (relative: string): Promise<void> => {
    const entries: Dirent[] = await readdir(join(root, relative), { withFileTypes: true }).catch(() => []);
    if (entries.some((entry) => entry.isFile() && (CONFIG_FILE_NAMES as readonly string[]).includes(entry.name))) folders.push(relative);
    await Promise.all(
      entries
        .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.') && entry.name !== 'node_modules')
        .map((entry) => walk(relative === '.' ? entry.name : posix.join(relative, entry.name))),
    );
  };
  await walk('.');
  return folders.sort((a, b) => (a === '.' ? -1 : b === '.' ? 1 : compareText(a, b))).map(calendarAt);
}

/**
 * The calendars a change touched: each changed path (relative to the searched folder, forward
 * slashes) belongs to the calendar of the deepest folder that contains it. Paths outside every
 * calendar touch none.
 */
export function touchedCalendars(calendars: readonly Calendar[], changedPaths: readonly string[]): Calendar[] {
  const touched = new Set<string>();
  const deepestFirst = [...calendars].sort((a, b) => b.folder.length - a.folder.length);
  for (const path of changedPaths) {
    const owner = deepestFirst.find((calendar) => calendar.folder === '.' || path.startsWith(`${calendar.folder}/`));
    if (owner) touched.add(owner.folder);
  }
  return calendars.filter((calendar) => touched.has(calendar.folder));
}
