import { mergeStateFiles } from '../../src/state/merge-files.js';
import { terminalText } from '../../src/text/terminal.js';

/**
 * `postsync state merge %O %A %B`: git's merge driver for .postsync/state.json. Exit 0 with the
 * merged state in %A; exit 1 (a conflict for git, %A untouched) when a version is not a valid state.
 */
export async function runStateMerge(base: string, ours: string, theirs: string): Promise<number> {
  const notes = await mergeStateFiles({ base, ours, theirs });
  for (const note of notes) process.stderr.write(`postsync state merge: ${terminalText(`${note.section} ${note.key} (${note.targetId}): ${note.message}`)}\n`);
  return 0;
}
