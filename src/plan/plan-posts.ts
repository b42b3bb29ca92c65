import type { Capabilities } from '../api/types.js';
import type { DesiredPost, InvalidFile } from '../content/types.js';
import type { Diagnostic } from '../diagnostics.js';
import type { UnconfirmedRecords } from '../state/seal.js';
import type { TargetState } from '../state/types.js';
import { accountAvailability } from './account-availability.js';
import type { ForeignOwners } from './foreign-owners.js';
import { withScheduleFacts } from './schedule-changes.js';
import { guardChanges } from './guards.js';
import { createPlan } from './planner.js';
import type { LivePostsById, Plan, PlanChoices, PlanInput, PlanTarget } from './types.js';
import { NONE_UNCONFIRMED, trustedState } from './unconfirmed-records.js';

/** Everything planning needs once the files, the remote side and the state are read. */
export interface PlanPostsInput {
  target: PlanTarget;
  /** The desired posts, sorted by key. */
  posts: DesiredPost[];
  /** Problems of the files themselves: a file with an error yields no post. */
  contentDiagnostics: Diagnostic[];
  /** The account-rule checks of the posts. */
  checkDiagnostics: Diagnostic[];
  /** The files that yield no post because of their errors: their posts are blocked. */
  invalidFiles: readonly InvalidFile[];
  state: TargetState;
  /** The records of `state` without a valid seal (`unconfirmedRecords`); absent: none. */
  unconfirmed?: UnconfirmedRecords;
  /** The posts other calendars of the repository record (`ForeignOwners`); absent: none. */
  foreignOwners?: ForeignOwners;
  /** `stateSectionHash(state)`. */
  stateHash: string;
  live: LivePostsById;
  /** Remote media ids the state does not know, by content (`PlanInput.mediaSha256s`). */
  mediaSha256s?: ReadonlyMap<string, string>;
  /** Capabilities of the accounts in use, by id (an account missing here is not connected). */
  capabilities: ReadonlyMap<string, Capabilities>;
  prune: boolean;
  only: string[] | null;
  now: Date;
  /** A person's decisions on held posts (`--adopt`, `--recreate`); absent: none. */
  choices?: PlanChoices;
  /** The project's time zone (`config.timezone`): the times a plan's changes name are read on its clock. */
  timezone: string;
}

/**
 * The plan: every post is paired with its state record and live post (`createPlan`), then the guards block what
 * must not happen (a post with errors is blocked, and a broken file never deletes its post;
 * nothing is scheduled into the past; nothing rests on a record without a valid seal).
 */
export function planPosts(input: PlanPostsInput): Plan {
  const unconfirmed = input.unconfirmed ?? NONE_UNCONFIRMED;
  const state = trustedState(input.state, unconfirmed);
  const planInput: PlanInput = {
    target: input.target,
    desired: input.posts,
    diagnostics: [...input.contentDiagnostics, ...input.checkDiagnostics],
    state,
    stateHash: input.stateHash,
    live: input.live,
    ...(input.mediaSha256s === undefined || input.mediaSha256s.size === 0 ? {} : { mediaSha256s: input.mediaSha256s }),
    accounts: accountAvailability(input.capabilities),
    ...(input.foreignOwners === undefined || input.foreignOwners.size === 0 ? {} : { foreignOwners: input.foreignOwners }),
    prune: input.prune,
    only: input.only,
    now: input.now.toISOString(),
    ...(input.choices === undefined ? {} : { choices: input.choices }),
  };
  const plan = createPlan(planInput);
  const guarded = guardChanges(plan, {
    diagnostics: planInput.diagnostics,
    invalidFiles: input.invalidFiles,
    posts: input.posts,
    state,
    unconfirmed,
    ...(input.foreignOwners === undefined ? {} : { foreignOwners: input.foreignOwners }),
    only: input.only,
    now: input.now,
    timezone: input.timezone,
  });
  return withScheduleFacts(guarded, input.posts);
}
