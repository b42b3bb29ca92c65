import type { Post } from '../api/types.js';
import type { DesiredPost, PostShape } from '../content/types.js';
import { compareText } from '../text/ordering.js';
import { leftToService } from './live-shape.js';
import type { PlanContext } from './plan-context.js';
import { tidiedHash, tidiedText } from './tidied-shape.js';

/** Why a new file's post is held instead of created: which remote post it is cannot be told for certain. */
export type HoldReason = 'adopt-ambiguous' | 'adopt-uncertain';

/** A new file held for a person: the remote posts that may be its post, oldest first. */
export interface HeldAdoption {
  reason: HoldReason;
  candidates: Post[];
}

/** What `matchTidiedAdoptions` found: new key → the remote post it adopts, and the files it holds. */
export interface TidiedAdoptions {
  adopted: Map<string, Post>;
  held: Map<string, HeldAdoption>;
}

function withoutOptions(shape: PostShape): PostShape {
  return { ...shape, targets: shape.targets.map((target) => ({ ...target, options: {} })) };
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/**
 * The second pass of adoption, after exact matches (`matchAdoptions`): new files that no orphan
 * is exactly, paired with orphans that are the file in the form a service may keep it in
 * (`tidiedShape`: blanks, line ends, NFC, tags, titles, the schedule to the minute, media in any
 * order), options the file leaves to the service aside. A state lost with the service's
 * idempotency keys forgotten must never make a second post, so what is not certain is held:
 * - files that share a tidied form take as many orphans of that form one to one (files in key
 *   order, orphans oldest first); a different number of orphans than files is `adopt-ambiguous`;
 * - no such orphan, but one whose text is the file's (tidied) while it differs otherwise, or whose
 *   media are not known by content: `adopt-uncertain`.
 * Only the files and orphans given are looked at (the caller decides which posts may be adopted).
 */
export function matchTidiedAdoptions(files: readonly DesiredPost[], orphans: readonly Post[], context: Pick<PlanContext, 'shapeOf'>): TidiedAdoptions {
  const adopted = new Map<string, Post>();
  const held = new Map<string, HeldAdoption>();
  if (files.length === 0 || orphans.length === 0) return { adopted, held };
  const byForm = new Map<string, Post[]>();
  const byText = new Map<string, Post[]>();
  for (const live of orphans) {
    const shape = context.shapeOf(live);
    push(byForm, tidiedHash(withoutOptions(shape)), live);
    push(byText, tidiedText(shape.content), live);
  }
  const groups = new Map<string, DesiredPost[]>();
  for (const post of [...files].sort((a, b) => compareText(a.key, b.key))) push(groups, tidiedHash(post.shape), post);
  const taken = new Set<Post>();
  for (const [form, twins] of groups) {
    const { shape } = twins[0]!;
    const matches = (byForm.get(tidiedHash(withoutOptions(shape))) ?? []).filter((live) => !taken.has(live) && tidiedHash(leftToService(context.shapeOf(live), shape)) === form);
    if (matches.length === twins.length) {
      twins.forEach((post, index) => {
        adopted.set(post.key, matches[index]!);
        taken.add(matches[index]!);
      });
      continue;
    }
    const near = matches.length > 0 ? matches : (byText.get(tidiedText(shape.content)) ?? []).filter((live) => !taken.has(live));
    if (near.length === 0) continue;
    const reason: HoldReason = matches.length > 0 ? 'adopt-ambiguous' : 'adopt-uncertain';
    for (const post of twins) held.set(post.key, { reason, candidates: near });
  }
  return { adopted, held };
}
