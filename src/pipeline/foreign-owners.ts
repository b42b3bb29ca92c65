import { realpath } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { readConfigFile } from '../config/config-file.js';
import { findCalendars } from '../config/find-calendars.js';
import { DEFAULT_STATE_PATH, readStateSetting } from '../config/state-section.js';
import type { ForeignOwners } from '../plan/foreign-owners.js';
import { fileAt, localRef, workTreeTop } from '../state/home-git.js';
import { parseState, readStateText, type StateProject } from '../state/state-file.js';
import type { StateFile } from '../state/types.js';

/**
 * The posts the other calendars of this repository record for the same API project (`project`):
 * post id → the other calendar's folder, relative to the repository's top (`.` for the top).
 * The other calendars are found as `postsync calendars` finds them (every folder with a
 * postsync.yaml, from the work tree's top; from `root` itself outside git), and each one's state is
 * read where it may be: its working state file, and, for a branch home, the branch as this clone
 * last fetched it. A state that cannot be read names no post (its own calendar reports it).
 */
export async function foreignOwners(root: string, project: StateProject): Promise<ForeignOwners> {
  const realRoot = await realpath(root);
  const top = await workTreeTop({ cwd: root, remote: 'origin' }).then((found) => realpath(found), () => realRoot);
  const own = relative(top, realRoot).split(sep).join('/') || '.';
  const owners = new Map<string, string>();
  for (const calendar of await findCalendars(top).catch(() => [])) {
    if (calendar.folder === own) continue;
    for (const state of await calendarStates(top, calendar.folder)) {
      for (const record of Object.values(state.targets[project.id]?.posts ?? {})) if (!owners.has(record.postId)) owners.set(record.postId, calendar.folder);
    }
  }
  return owners;
}

/** The states a calendar keeps: its working file, and its branch home's file as last fetched. */
async function calendarStates(top: string, folder: string): Promise<StateFile[]> {
  const dir = join(top, folder);
  const configFile = await readConfigFile(dir).catch(() => null);
  const setting = configFile === null ? { file: DEFAULT_STATE_PATH, home: { kind: 'file' as const } } : readStateSetting(configFile, []);
  const path = join(dir, setting.file);
  const texts: { text: string | null; where: string }[] = [{ text: readTextOrNull(path), where: path }];
  if (setting.home.kind === 'branch') {
    const onBranch = relative(top, path).split(sep).join('/');
    texts.push({ text: await fileAt({ cwd: top, remote: 'origin' }, localRef(setting.home.branch), onBranch), where: `${onBranch} on ${setting.home.branch}` });
  }
  const states: StateFile[] = [];
  for (const { text, where } of texts) {
    if (text === null) continue;
    const state = await parseState(text, where).catch(() => null);
    if (state !== null) states.push(state);
  }
  return states;
}

function readTextOrNull(path: string): string | null {
  try {
    return readStateText(path);
  } catch {
    return null;
  }
}
