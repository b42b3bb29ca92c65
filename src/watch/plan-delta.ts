import type { Diagnostic } from '../diagnostics.js';
import type { Change, Plan } from '../plan/types.js';
import { canonicalJson } from '../state/hash.js';

/** What differs between two consecutive plans: what a person needs to see after a save. */
export interface PlanDelta {
  /** Changes (other than noop) that are new, or differ from the previous plan's change of that key. */
  changes: Change[];
  /** The previous plan's changes (other than noop) that this plan no longer has: nothing left to do, or on hold. */
  dropped: Change[];
  /** Every diagnostic of the files the save affected, and those that appeared elsewhere. */
  diagnostics: Diagnostic[];
  /** The previous plan's diagnostics that are gone. */
  fixed: Diagnostic[];
  /** The media to upload differ (a file was replaced, added or dropped). */
  uploadsChanged: boolean;
}

/**
 * What a person sees of each change, kept while the change object lives: unchanged posts keep
 * their change objects from plan to plan, so a session keeps one of these for all its deltas.
 */
export class ChangeSignatures {
  readonly #byChange = new WeakMap<Change, string>();

  /** `liveUpdatedAt` and the like are left out. */
  of(change: Change): string {
    let signature = this.#byChange.get(change);
    if (signature === undefined) {
      const { action, fromKey, file, details, fields, drift } = change;
      signature = canonicalJson({ action, fromKey, file, details, fields, drift });
      this.#byChange.set(change, signature);
    }
    return signature;
  }
}

/** A problem keeps its identity when lines above it are added or removed: positions are left out. */
function diagnosticIdentity(diagnostic: Diagnostic): string {
  return canonicalJson([diagnostic.severity, diagnostic.file ?? '', diagnostic.code, diagnostic.message]);
}

function countBy<T>(items: readonly T[], key: (item: T) => string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return counts;
}

/** Items of `items` with no counterpart left in `others` (a multiset difference, order kept). */
function unmatched<T>(items: readonly T[], others: readonly T[], key: (item: T) => string): T[] {
  const remaining = countBy(others, key);
  return items.filter((item) => {
    const id = key(item);
    const left = remaining.get(id) ?? 0;
    if (left === 0) return true;
    remaining.set(id, left - 1);
    return false;
  });
}

/** `affectedFiles`: project-relative files the save wrote or removed, and the post files of a media file it changed; their diagnostics are all shown again. */
export function planDelta(previous: Plan, current: Plan, affectedFiles: ReadonlySet<string>, signatures = new ChangeSignatures()): PlanDelta {
  const active = (plan: Plan) => plan.changes.filter((change) => change.action !== 'noop');
  const before = new Map(active(previous).map((change) => [change.key, signatures.of(change)]));
  const now = active(current);
  const nowKeys = new Set(now.map((change) => change.key));
  const movedFrom = new Set(now.flatMap((change) => (change.fromKey === undefined ? [] : [change.fromKey])));

  const newDiagnostics = new Set(unmatched(current.diagnostics, previous.diagnostics, diagnosticIdentity));
  return {
    changes: now.filter((change) => before.get(change.key) !== signatures.of(change)),
    dropped: active(previous).filter((change) => !nowKeys.has(change.key) && !movedFrom.has(change.key)),
    diagnostics: current.diagnostics.filter((d) => newDiagnostics.has(d) || (d.file !== undefined && affectedFiles.has(d.file))),
    fixed: unmatched(previous.diagnostics, current.diagnostics, diagnosticIdentity),
    uploadsChanged: canonicalJson(previous.uploads) !== canonicalJson(current.uploads),
  };
}

/** True when the delta has nothing to show. */
export function isEmptyDelta(delta: PlanDelta): boolean {
  return delta.changes.length + delta.dropped.length + delta.diagnostics.length + delta.fixed.length === 0 && !delta.uploadsChanged;
}
