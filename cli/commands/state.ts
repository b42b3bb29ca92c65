import type { Command } from 'commander';
import { InputError } from '../../src/errors.js';
import { confirmState } from '../../src/pipeline/confirm-state.js';
import { mergeStateFiles } from '../../src/state/merge-files.js';
import { term } from '../../src/text/terminal.js';
import { err, out } from '../output.js';
import { globalOptions, isCI, openProject } from '../context.js';
import { askApproval } from '../prompt.js';
import { renderUnconfirmed } from '../views/unconfirmed-records.js';

/**
 * `postsync state merge %O %A %B`: git's merge driver for .postsync/state.json. Exit 0 with the
 * merged state in %A; exit 1 (a conflict for git, %A untouched) when a version is not a valid state.
 */
export async function runStateMerge(base: string, ours: string, theirs: string): Promise<number> {
  const notes = await mergeStateFiles({ base, ours, theirs });
  for (const note of notes) err.write(term`postsync state merge: ${`${note.section} ${note.key} (${note.targetId}): ${note.message}`}\n`);
  return 0;
}

export interface StateConfirmFlags {
  all?: boolean;
  yes?: boolean;
}

/**
 * `postsync state confirm [KEY…|--all]`: lists the records without a valid seal it would seal
 * (key, post id, remote status, a text preview) and seals them once confirmed (asked on a
 * terminal; `--yes` otherwise). Exit 0 when sealed or nothing needed it, 1 when declined.
 */
export async function runStateConfirm(keys: string[], flags: StateConfirmFlags, command: Command): Promise<number> {
  if (keys.length > 0 === (flags.all === true)) {
    throw new InputError('name the post keys to confirm, or pass --all (not both)', { hint: 'Example: postsync state confirm 2027-01/launch, or postsync state confirm --all' });
  }
  const interactive = process.stdin.isTTY === true && process.stderr.isTTY === true && !isCI();
  if (!flags.yes && !interactive) {
    throw new InputError('state confirm vouches for state records and needs confirmation.', { hint: 'Outside an interactive terminal, pass --yes (run it first on a terminal to see what it would confirm).' });
  }
  const { config, connection, style } = await openProject(globalOptions(command));
  try {
    const outcome = await confirmState({
      config,
      connection,
      select: flags.all === true ? { all: true } : { keys },
      approve: async (records) => {
        out.write(term`${renderUnconfirmed(records, { label: connection.label, style })}\n`);
        return flags.yes === true || (await askApproval(term`\nDo these records point at what this calendar owns?`));
      },
    });
    if (outcome.kind === 'nothing') out.write(term`Nothing to confirm: every record named carries a valid seal.\n`);
    if (outcome.kind === 'declined') out.write(term`Nothing was confirmed.\n`);
    if (outcome.kind === 'confirmed') out.write(style.green(term`Confirmed ${outcome.records.length} ${outcome.records.length === 1 ? 'record' : 'records'}: plans act on them again.\n`));
    return outcome.kind === 'declined' ? 1 : 0;
  } finally {
    await connection.close();
  }
}
