import type { DesiredPost } from '../content/types.js';
import { compareChanges, createPlan, mediaUploads, summarize } from '../plan/planner.js';
import type { Change, Plan, PlanInput } from '../plan/types.js';
import type { TargetState } from '../state/types.js';

interface Remembered {
  /** The desired posts of the last plan, by key (the very objects: a re-read file is a new one). */
  desired: Map<string, DesiredPost>;
  /** Its changes (before the guards), by key. */
  changes: Map<string, Change>;
  stateHash: string;
  /** Everything else a change depends on: the remote data, the accounts, prune and --target. */
  context: string;
}

/**
 * `createPlan` for a session that plans again after every save. Planning hashes every post
 * (tens of milliseconds for a thousand), yet a save touches one file: the change of a post that
 * is the same object as last time, against the same state and remote data, is the same change.
 * So only the other posts go through the planner, together with everything a rename could pair
 * (removed keys and new posts) and every pending create; the result is merged with the changes
 * kept from last time. The outcome equals `createPlan` on the whole input (a property test
 * holds the two together).
 */
export class IncrementalPlanner {
  #last: Remembered | null = null;

  /** `remoteVersion` must change whenever the live posts or the account rules may have changed. */
  plan(input: PlanInput, remoteVersion: number): Plan {
    const desired = new Map(input.desired.map((post) => [post.key, post]));
    const context = JSON.stringify([remoteVersion, [...input.accounts.keys()], input.prune, input.only]);
    const last = this.#last;
    const reusable = last !== null && last.stateHash === input.stateHash && last.context === context && input.only === null;
    const plan = reusable ? replan(input, desired, last) : createPlan(input);
    this.#last = { desired, changes: new Map(plan.changes.map((change) => [change.key, change])), stateHash: input.stateHash, context };
    return plan;
  }
}

function replan(input: PlanInput, desired: Map<string, DesiredPost>, last: Remembered): Plan {
  const { state } = input;
  const removedKeys = Object.keys(state.posts).filter((key) => !desired.has(key));
  const isSame = (post: DesiredPost): boolean => {
    const before = last.changes.get(post.key);
    return (
      last.desired.get(post.key) === post &&
      before !== undefined &&
      before.fromKey === undefined &&
      state.pending[post.key] === undefined &&
      // While some owned key has no file, every new post may be its rename.
      (removedKeys.length === 0 || state.posts[post.key] !== undefined)
    );
  };
  const kept: Change[] = [];
  const again: DesiredPost[] = [];
  for (const post of input.desired) {
    if (isSame(post)) kept.push(last.changes.get(post.key)!);
    else again.push(post);
  }
  const records: TargetState['posts'] = {};
  for (const key of [...again.map((post) => post.key), ...removedKeys]) {
    const record = state.posts[key];
    if (record !== undefined) records[key] = record;
  }
  const partial = createPlan({ ...input, desired: again, state: { ...state, posts: records } });
  const changes = [...kept, ...partial.changes].sort(compareChanges);
  return { ...partial, changes, summary: summarize(changes), uploads: mediaUploads(changes, desired, state) };
}
