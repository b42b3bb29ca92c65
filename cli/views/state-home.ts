import { relative } from 'node:path';
import type { StateShown } from '../../src/pipeline/show-state.js';
import { joinTerminal, term, terminalPath, type Terminal } from '../../src/text/terminal.js';

const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

/** `postsync state show`, for a person: where the state lives, then each target's records and seals. */
export function renderStateShown(shown: StateShown, options: { cwd: string; sealNote: string | null }): Terminal {
  const { where } = shown;
  const lines: Terminal[] = [];
  if (where.kind === 'file') lines.push(term`State home: the committed file ${terminalPath(relative(options.cwd, where.path) || where.path)} (home: file).`);
  else if (where.commit === null) lines.push(term`State home: branch ${where.branch} of ${where.remote}, which does not exist yet (the first apply creates it).`);
  else lines.push(term`State home: ${terminalPath(where.path)} on branch ${where.branch} of ${where.remote}, commit ${where.commit.slice(0, 12)}${where.found ? '' : ' (no state for this calendar there yet)'}.`);
  if (shown.sections.length === 0) lines.push(term`No records.`);
  for (const section of shown.sections) {
    lines.push(term``, term`Target ${section.targetId}: ${plural(section.posts, 'post')}, ${plural(section.media, 'media file')}, ${plural(section.pending, 'pending create')}, ${plural(section.uploads, 'unfinished upload')}.`);
    const unconfirmed = section.unconfirmed;
    if (unconfirmed === null) {
      lines.push(term`  Seals: not checked${options.sealNote === null ? ' (another target than this calendar\'s)' : ''}.`);
      continue;
    }
    const keys = [...unconfirmed.posts, ...unconfirmed.pending, ...unconfirmed.media, ...unconfirmed.uploads];
    if (keys.length === 0) lines.push(term`  Seals: all ok.`);
    else lines.push(term`  Seals: ${plural(keys.length, 'record')} unconfirmed (plans leave them alone until postsync state confirm): ${keys.join(', ')}`);
  }
  if (options.sealNote !== null) lines.push(term``, term`${options.sealNote}`);
  return term`${joinTerminal(lines, '\n')}\n`;
}
