import { join } from 'node:path';
import { loadConfig } from '../config/load-config.js';
import { pathsByCalendar, type CalendarFolder } from '../config/find-calendars.js';
import { ownedPaths } from '../content/owned-paths.js';

/**
 * The calendars (found below `root`) a change touched, in their order: each changed path belongs
 * to the calendar of the deepest folder holding it (`pathsByCalendar`), and touches it only when
 * the calendar owns it (`ownedPaths`: its postsync.yaml, state, posts, snippets and the media its
 * posts name). A calendar whose postsync.yaml cannot be read is touched by any path in its folder,
 * so that its plan says what is wrong.
 */
export async function changedCalendars(root: string, calendars: readonly CalendarFolder[], changedPaths: readonly string[]): Promise<CalendarFolder[]> {
  const touched = new Set<CalendarFolder>();
  for (const [calendar, paths] of pathsByCalendar(calendars, changedPaths)) {
    const config = await loadConfig({ cwd: join(root, calendar.folder), env: {} }).catch(() => null);
    if (config === null || (await ownedPaths(config, paths)).length > 0) touched.add(calendar);
  }
  return calendars.filter((calendar) => touched.has(calendar));
}
