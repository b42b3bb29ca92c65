import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { InputError } from '../errors.js';
import { compareText } from '../text/ordering.js';
import { terminalPath } from '../text/terminal.js';
import { CONFIG_FILE_NAMES } from './config-file.js';

/**
 * One calendar of a repository that keeps several: a folder with its own postsync.yaml, and the
 * names of the secrets its workflows read (`POSTSYNC_API_URL`, `POSTSYNC_API_KEY` and
 * `POSTSYNC_API_READ_KEY` for the folder the search started from, `…_CLIENTS_ACME` for `clients/acme`).
 */
export interface CalendarFolder {
  /** Relative to the folder searched, forward slashes; `.` for that folder itself. */
  folder: string;
  apiUrlSecret: string;
  /** The key that writes: only the apply job reads it, from the protected environment (APPLY_ENVIRONMENT of src/init). */
  apiKeySecret: string;
  /** A key with accounts-read and posts-read alone: the plan and health jobs read it, as a repository secret. */
  readKeySecret: string;
  /** The name of the calendar page artifact of its plan job: `postsync-calendar`, `postsync-calendar-clients-acme`. */
  artifactName: string;
  /** The name of the state hand-off artifact of its apply job: `postsync-state`, `postsync-state-clients-acme`. */
  stateArtifactName: string;
}

/** `clients/acme-co` → `_CLIENTS_ACME_CO`; `.` → `` (secret names allow only A–Z, 0–9 and `_`). */
export function secretSuffix(folder: string): string {
  if (folder === '.') return '';
  return `_${folder.toUpperCase().replace(/[^A-Z0-9]+/g, '_').replace(/^_+|_+$/g, '')}`;
}

export function calendarAt(folder: string): CalendarFolder {
  const suffix = secretSuffix(folder);
  // The secret suffix in lower case with `-`: artifact names allow no `/`, and calendars whose
  // names would collide are refused already (assertDistinctSecrets).
  const name = suffix.toLowerCase().replace(/_/g, '-');
  return { folder, apiUrlSecret: `POSTSYNC_API_URL${suffix}`, apiKeySecret: `POSTSYNC_API_KEY${suffix}`, readKeySecret: `POSTSYNC_API_READ_KEY${suffix}`, artifactName: `postsync-calendar${name}`, stateArtifactName: `postsync-state${name}` };
}

/**
 * Every folder at or below `root` that holds a postsync.yaml (or .yml), sorted by path. Hidden
 * folders (`.git`, `.postsync`) and `node_modules` are not searched, symlinks are not followed.
 */
export async function findCalendars(root: string): Promise<CalendarFolder[]> {
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
  assertSafeFolderNames(folders);
  return folders.sort((a, b) => (a === '.' ? -1 : b === '.' ? 1 : compareText(a, b))).map(calendarAt);
}

/**
 * What a calendar folder's path may hold: letters and digits of any script (with their combining
 * marks), space, `.`, `_`, `-` and `/`. The workflows write the folder into job logs and workflow
 * commands (`::notice …$CALENDAR`), and the folder comes from whoever opens a pull request: a line
 * break, a control or format character, `:` or `%` there could start or rewrite a command.
 */
const SAFE_FOLDER = /^[\p{L}\p{M}\p{N} ._\-/]+$/u;

/** The safe set as the error and the docs say it. */
export const SAFE_FOLDER_TEXT = 'letters, digits, space and . _ - /';

/** Refuses (InputError) calendar folders outside the safe set, naming every one. */
function assertSafeFolderNames(folders: readonly string[]): void {
  const unsafe = folders.filter((folder) => !SAFE_FOLDER.test(folder));
  if (unsafe.length === 0) return;
  throw new InputError(`${unsafe.length === 1 ? 'a calendar folder has a name' : 'calendar folders have names'} with characters other than ${SAFE_FOLDER_TEXT}:\n${unsafe.map((folder) => `  ${terminalPath(folder)}`).join('\n')}`, {
    hint: 'The workflows write each calendar folder into job logs and workflow commands, where such characters could forge a command. Rename the folder.',
  });
}

/**
 * The changed paths (relative to the searched folder, forward slashes) of each calendar: a path
 * belongs to the calendar of the deepest folder that contains it, relative to that folder. Paths
 * outside every calendar belong to none; a calendar no path belongs to is left out.
 */
export function pathsByCalendar(calendars: readonly CalendarFolder[], changedPaths: readonly string[]): Map<CalendarFolder, string[]> {
  const byCalendar = new Map<CalendarFolder, string[]>();
  const deepestFirst = [...calendars].sort((a, b) => b.folder.length - a.folder.length);
  for (const path of changedPaths) {
    const owner = deepestFirst.find((calendar) => calendar.folder === '.' || path.startsWith(`${calendar.folder}/`));
    if (owner) byCalendar.set(owner, [...(byCalendar.get(owner) ?? []), owner.folder === '.' ? path : path.slice(owner.folder.length + 1)]);
  }
  return byCalendar;
}

/** Calendars whose folders map to the same secret names (`acme-eu`, `acme_eu`, `ACME-EU`). */
export interface SharedSecret {
  folders: string[];
  apiKeySecret: string;
}

/**
 * Every secret name more than one calendar would read, with those calendars' folders. Each such
 * calendar would be applied with one and the same key: the posts of one client published on the
 * accounts of another.
 */
export function sharedSecrets(calendars: readonly CalendarFolder[]): SharedSecret[] {
  const byName = new Map<string, string[]>();
  for (const calendar of calendars) byName.set(calendar.apiKeySecret, [...(byName.get(calendar.apiKeySecret) ?? []), calendar.folder]);
  return [...byName].filter(([, folders]) => folders.length > 1).map(([apiKeySecret, folders]) => ({ folders, apiKeySecret }));
}

/**
 * Refuses (InputError) calendars that would share secrets: a warning would scroll by in a job log
 * while the workflows apply both calendars with one key, so nothing is listed until a folder is
 * renamed.
 */
export function assertDistinctSecrets(calendars: readonly CalendarFolder[]): void {
  const shared = sharedSecrets(calendars);
  if (shared.length === 0) return;
  const lines = shared.map((group) => `  ${group.folders.map(terminalPath).join(' and ')} would both use ${group.apiKeySecret} (and its POSTSYNC_API_URL twin)`);
  throw new InputError(`${shared.length === 1 ? 'two calendar folders map' : 'calendar folders map'} to the same secret names, so their workflows would apply one client's posts with another's key:\n${lines.join('\n')}`, {
    hint: 'Rename one of each pair so that the names differ in more than case, `-` and `_` (secret names keep only A-Z, 0-9 and _).',
  });
}
