import { InputError, StateError } from '../errors.js';
import { commitFiles, fetchHome, pushHome, type FileChange, type HomeRepository } from '../state/home-git.js';
import type { StateMergeNote } from '../state/merge.js';
import { untilPushed, type PushRetryPolicy, type RetryClock } from '../state/push-retry.js';
import type { StateHandoff } from './state-handoff.js';
import { mergeTexts, stateTextAt, type BranchHome } from './state-home-sync.js';

/** What recording the hand-offs of one branch came to. */
export type BranchRecord =
  | { branch: string; kind: 'pushed'; commit: string; created: boolean; calendars: string[]; notes: StateMergeNote[] }
  | { branch: string; kind: 'unchanged'; calendars: string[] }
  | { branch: string; kind: 'failed'; calendars: string[]; error: Error };

/**
 * The fan-in of the apply workflow: every hand-off of one run, recorded in its home with one
 * commit per branch (the state branch of the branch homes, the applied branch of the file homes)
 * and one push each. The push loop is `untilPushed`: each attempt fetches the branch's tip, merges
 * each state into the one the tip holds entry by entry (three-way, from the state as the job read
 * it), commits the files that changed on top of the tip, and pushes; a rejected push (another
 * writer moved or created the branch meanwhile) changed nothing and is tried again. Branches are
 * recorded one after the other, and one that fails does not keep the others from being recorded.
 */
export async function recordStates(handoffs: readonly StateHandoff[], options: { repository: HomeRepository; message: string; retry?: { policy?: PushRetryPolicy; clock?: RetryClock } }): Promise<BranchRecord[]> {
  const byBranch = new Map<string, StateHandoff[]>();
  for (const handoff of handoffs) byBranch.set(handoff.branch, [...(byBranch.get(handoff.branch) ?? []), handoff]);
  const records: BranchRecord[] = [];
  for (const [branch, group] of [...byBranch].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const calendars = group.map((handoff) => handoff.calendar);
    try {
      records.push(await recordBranch(branch, group, options));
    } catch (error) {
      records.push({ branch, kind: 'failed', calendars, error: error as Error });
    }
  }
  return records;
}

async function recordBranch(branch: string, group: readonly StateHandoff[], options: { repository: HomeRepository; message: string; retry?: { policy?: PushRetryPolicy; clock?: RetryClock } }): Promise<BranchRecord> {
  const calendars = group.map((handoff) => handoff.calendar);
  return untilPushed<BranchRecord>(async () => {
    const tip = await fetchHome(options.repository, branch);
    const homes = group.map((handoff): BranchHome => ({ repository: options.repository, branch, path: handoff.path }));
    const currents = tip === null ? group.map(() => null) : await inTurns(homes, (home) => stateTextAt(home, tip));
    const files: FileChange[] = [];
    const notes: StateMergeNote[] = [];
    for (const [n, handoff] of group.entries()) {
      const home = homes[n]!;
      const current = currents[n]!;
      if (current === handoff.state) continue;
      const merged = current === null ? { text: handoff.state, notes: [] } : await mergeTexts(home, { base: handoff.base, ours: handoff.state, theirs: current });
      notes.push(...merged.notes);
      if (merged.text !== current) files.push({ path: handoff.path, text: merged.text });
    }
    if (files.length === 0) return { kind: 'done', value: { branch, kind: 'unchanged', calendars } };
    const commit = await commitFiles(options.repository, { parent: tip, files, message: options.message });
    const pushed = await pushHome(options.repository, commit, branch);
    if (pushed.kind === 'rejected') return pushed;
    if (pushed.kind === 'refused') throw refusal(branch, group, pushed.reason);
    return { kind: 'done', value: { branch, kind: 'pushed', commit, created: tip === null, calendars, notes } };
  }, { branch, ...options.retry });
}

/** Git runs at once while the branch's states are read: a few per state, whatever the number of calendars. */
const READS_AT_ONCE = 8;

/** `read` of every item, at most READS_AT_ONCE at a time, in the items' order. */
async function inTurns<T, R>(items: readonly T[], read: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let start = 0; start < items.length; start += READS_AT_ONCE) results.push(...(await Promise.all(items.slice(start, start + READS_AT_ONCE).map(read))));
  return results;
}

/** The remote's rules refuse the commit: for the file home, the way out is the branch home. */
function refusal(branch: string, group: readonly StateHandoff[], reason: string): Error {
  if (group.some((handoff) => handoff.home === 'file')) {
    return new InputError(`${branch} refuses the state commit (a protected branch?), so what this run applied is not recorded there`, {
      hint: 'Keep the state on a branch of its own: run postsync state move-home --to branch and merge the change of postsync.yaml (state: { home: branch }); apply then pushes only to that branch.',
    });
  }
  return new StateError(`${branch} refuses the state commit: ${reason}`, { hint: `Let the workflow's token push to ${branch}: exclude it from the rulesets that cover it, or add GitHub Actions to their bypass list.` });
}
