import type { DesiredPost } from '../content/types.js';
import { compareChanges, createPlan, mediaUploads, summarize } from './planner.js';
import type { Change, LivePostsById, Plan, PlanInput } from './types.js';
import type { TargetState } from '../state/types.js';

interface Remembered {
  /** The desired posts of the last plan, by key (the very objects: a re-read file is a new one). */
  desired: Map<string, DesiredPost>;
  /** Its changes (before the guards), by key. */
  changes: Map<string, Change>;
  stateHash: string;
  /** The remote posts it was planned against (the very object: a new listing is a new one). */
  live: LivePostsById;
  /** Everything else a change depends on: the accounts and prune. */
  context: string;
}

/**
 * `createPlan` for a session that plans again after every save. Planning hashes every post, yet a
 * save touches one file: the change of a post that is the same object as last time, against the
 * same state and the same remote listing, is the same change. So only the other posts go through
 * the planner, together with everything a rename could pair (removed keys and new posts) and every
 * pending create; the result is merged with the changes kept from last time. The outcome equals
 * `createPlan` on the whole input (a property test holds the two together).
 */
export class IncrementalPlanner {
  #last: Remembered | null = null;

  /** Give a new `input.live` object whenever the remote posts were read again. */
  plan(input: PlanInput): Plan {
    const desired = new Map(input.desired.map((post) => [post.key, post]));
    const context = JSON.stringify([[...input.accounts], input.prune]);
    const last = this.#last;
    // A new file may adopt any orphan remote post, one-to-one with the other new files: that
    // pairing is made over the whole listing and state, so it is planned in full.
    const hasNewPosts = input.desired.some((post) => input.state.posts[post.key] === undefined && input.state.pending[post.key] === undefined);
    const reusable = last !== null && !hasNewPosts && last.stateHash === input.stateHash && last.live === input.live && last.context === context && input.only === null;
    const plan = reusable ? replan(input, desired, last) : createPlan(input);
    this.#last = { desired, changes: new Map(plan.changes.map((change) => [change.key, change])), stateHash: input.stateHash, live: input.live, context };
    return plan;
  }
}

function replan(input: PlanInput, desired: Map<string, DesiredPost>, last: Remembered): Plan {
  const { state } = input;
  const removedKeys = Object.keys(state.posts).filter((key) => !desired.has(key));
  // Every post here has a state record or a pending create (a new post, which a rename or an
  // adoption could pair, makes `plan` plan in full), so none of them is a move's new side.
  const isSame = (post: DesiredPost): boolean => last.desired.get(post.key) === post && last.changes.has(post.key) && state.pending[post.key] === undefined;
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
