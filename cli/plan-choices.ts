import { InputError } from '../src/errors.js';
import type { PlanChoices } from '../src/plan/types.js';

/** The flags of a person's decisions on held posts, as commander gives them. */
export interface ChoiceFlags {
  adopt?: string[];
  recreate?: string[];
  recreateAll?: boolean;
}

/** `--adopt KEY=POST_ID`, `--recreate KEY` and `--recreate-all` as the planner takes them; undefined when none is given. */
export function planChoices(flags: ChoiceFlags): PlanChoices | undefined {
  if (flags.adopt === undefined && flags.recreate === undefined && flags.recreateAll !== true) return undefined;
  const adopt = new Map<string, string>();
  for (const pair of flags.adopt ?? []) {
    const at = pair.indexOf('=');
    const key = pair.slice(0, at).trim();
    const postId = pair.slice(at + 1).trim();
    if (at < 0 || key === '' || postId === '') throw new InputError(`--adopt takes KEY=POST_ID (a post key and the id of the remote post it is), not "${pair}"`, { hint: 'The plan names the candidates of each held post: postsync apply --adopt launch=<post id>.' });
    if (adopt.has(key) && adopt.get(key) !== postId) throw new InputError(`--adopt names two remote posts for ${key}`);
    adopt.set(key, postId);
  }
  const keys = new Set(flags.recreate ?? []);
  for (const key of keys) if (adopt.has(key)) throw new InputError(`--adopt and --recreate both name ${key}: adopt the remote post, or create a new one`);
  return { adopt, recreate: { all: flags.recreateAll === true, keys } };
}

/** The `choices` of a use case, when any flag gives one. */
export function choicesOf(flags: ChoiceFlags): { choices?: PlanChoices } {
  const choices = planChoices(flags);
  return choices === undefined ? {} : { choices };
}
