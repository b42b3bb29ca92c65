import type { PostShape, TargetShape } from '../content/types.js';
import { canonicalJson } from '../state/hash.js';
import type { FieldChange } from './types.js';

function same(a: unknown, b: unknown): boolean {
  return canonicalJson(a ?? null) === canonicalJson(b ?? null);
}

function byAccount(targets: readonly TargetShape[]): Map<string, TargetShape> {
  return new Map(targets.map((target) => [target.socialAccountId, target]));
}

function targetChanges(id: string, before: TargetShape, after: TargetShape): FieldChange[] {
  const changes: FieldChange[] = [];
  if (!same(before.contentOverride, after.contentOverride)) {
    changes.push({
      field: `targets[${id}].contentOverride`,
      before: before.contentOverride ?? null,
      after: after.contentOverride ?? null,
    });
  }
  const beforeOptions = before.options as Record<string, unknown>;
  const afterOptions = after.options as Record<string, unknown>;
  const names = [...new Set([...Object.keys(beforeOptions), ...Object.keys(afterOptions)])].sort();
  for (const name of names) {
    if (!same(beforeOptions[name], afterOptions[name])) {
      changes.push({
        field: `targets[${id}].options.${name}`,
        before: beforeOptions[name] ?? null,
        after: afterOptions[name] ?? null,
      });
    }
  }
  return changes;
}

/**
 * Field-level differences from `before` to `after`, in a stable order: `content`, `scheduledAt`,
 * `media` (whole list, order matters), then per account (sorted): `targets[<id>]` when the account
 * is added or removed (the absent side is null), else `targets[<id>].contentOverride` and
 * `targets[<id>].options.<name>`. An absent value is reported as null. Empty iff the shapes are
 * canonically equal.
 */
export function diffShapes(before: PostShape, after: PostShape): FieldChange[] {
  const changes: FieldChange[] = [];
  if (before.content !== after.content) changes.push({ field: 'content', before: before.content, after: after.content });
  if (before.scheduledAt !== after.scheduledAt) {
    changes.push({ field: 'scheduledAt', before: before.scheduledAt, after: after.scheduledAt });
  }
  if (!same(before.media, after.media)) changes.push({ field: 'media', before: before.media, after: after.media });

  const beforeTargets = byAccount(before.targets);
  const afterTargets = byAccount(after.targets);
  const ids = [...new Set([...beforeTargets.keys(), ...afterTargets.keys()])].sort();
  const targetFieldChanges: FieldChange[] = [];
  for (const id of ids) {
    const from = beforeTargets.get(id);
    const to = afterTargets.get(id);
    if (!from || !to) targetFieldChanges.push({ field: `targets[${id}]`, before: from ?? null, after: to ?? null });
    else targetFieldChanges.push(...targetChanges(id, from, to));
  }
  // Duplicate or reordered accounts differ as lists without differing per account.
  if (targetFieldChanges.length === 0 && !same(before.targets, after.targets)) {
    targetFieldChanges.push({ field: 'targets', before: before.targets, after: after.targets });
  }
  changes.push(...targetFieldChanges);
  return changes;
}

/** The changed fields' paths, in order: `content`, `scheduledAt`, `targets[…].options.vidATitle`. */
export function fieldNames(changes: readonly FieldChange[]): string[] {
  return changes.map((change) => change.field);
}
