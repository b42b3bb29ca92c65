import { writeFileAtomic } from '../state/atomic.js';
import { guardWrite, namedPathRoot } from '../write-guard/guard-write.js';
import type { Change, Plan } from '../plan/types.js';
import { reasonSentences } from './reason-words.js';

/** A change as JSON shows it to people and tools: its details as the sentences `reasons`, where `details` stands. */
export type ChangeWithReasons = Omit<Change, 'details'> & { reasons: string[] };

/** `change` with `reasons` in the place of `details` (the key order kept: the JSON reads as it always has). */
export function changeWithReasons(change: Change): ChangeWithReasons {
  return withReasons(change, { keepDetails: false }) as ChangeWithReasons;
}

function withReasons(change: Change, { keepDetails }: { keepDetails: boolean }): Record<string, unknown> {
  const shown: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(change)) {
    if (name !== 'details') {
      shown[name] = value;
      continue;
    }
    shown.reasons = reasonSentences(change);
    if (keepDetails) shown.details = value;
  }
  return shown;
}

/**
 * A plan as a file (`plan --out`): indented JSON, trailing newline. Each change carries its
 * `reasons` for people and, after them, its `details`, which `apply <file>` reads back
 * (`parsePlan` leaves the sentences aside).
 */
export function serializePlan(plan: Plan): string {
  return `${JSON.stringify({ ...plan, changes: plan.changes.map((change) => withReasons(change, { keepDetails: true })) }, null, 2)}\n`;
}

/**
 * Writes `plan` to the path named with `plan --out`: never through a link at that name (or, inside
 * the working folder, above it), which a pull request could have committed; replaced whole.
 */
export async function writePlanFile(path: string, plan: Plan): Promise<void> {
  const root = namedPathRoot(path);
  await guardWrite(path, root);
  await writeFileAtomic(path, serializePlan(plan), root);
}
