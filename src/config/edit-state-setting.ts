import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseDocument } from 'yaml';
import { InputError } from '../errors.js';
import { openNoFollow } from '../write-guard/anchored-folder.js';
import { guardWrite } from '../write-guard/guard-write.js';
import { CONFIG_FILE_NAMES } from './config-file.js';
import { DEFAULT_STATE_BRANCH, DEFAULT_STATE_PATH } from './state-section.js';
import type { StateHome } from './types.js';

/**
 * Rewrites `state:` of the calendar's postsync.yaml for `home`, keeping every other line and
 * comment as written. The shortest spelling: no `state:` at all for the default file home, and
 * `file:` / `branch:` only when they differ from the defaults.
 */
export async function writeStateSetting(root: string, setting: { file: string; home: StateHome }): Promise<string> {
  const found = await Promise.all(CONFIG_FILE_NAMES.map(async (name) => ({ name, text: await readFile(join(root, name), 'utf8').catch(() => null) })));
  const config = found.find((entry) => entry.text !== null);
  if (config === undefined || config.text === null) {
    throw new InputError(`no postsync.yaml in ${root} to record the state home in`, { hint: 'Run it in the calendar folder (the one holding postsync.yaml), or name it with --dir.' });
  }
  const document = parseDocument(config.text);
  if (document.errors.length > 0) throw new InputError(`${config.name} is not valid YAML: ${document.errors[0]!.message}`, { hint: 'Fix it (postsync validate shows where), then run it again.' });
  const value =
    setting.home.kind === 'file'
      ? setting.file === DEFAULT_STATE_PATH
        ? undefined
        : setting.file
      : { ...(setting.file === DEFAULT_STATE_PATH ? {} : { file: setting.file }), home: 'branch', ...(setting.home.branch === DEFAULT_STATE_BRANCH ? {} : { branch: setting.home.branch }) };
  if (value === undefined) document.delete('state');
  else document.set('state', value);
  const path = join(root, config.name);
  await guardWrite(path, { root });
  // Never through a link put at the name since the check.
  const handle = await openNoFollow(path, { truncate: true, root });
  try {
    await handle.writeFile(document.toString());
  } finally {
    await handle.close();
  }
  return config.name;
}
