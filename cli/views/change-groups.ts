import type { Change } from '../../src/plan/types.js';

/** A change shown on its own, or the changes of one repeat's occurrences, shown under their file. */
export type ShownChange = { change: Change } | { file: string; changes: Change[] };

/**
 * The changes in plan order, the occurrences of each repeat gathered under their file where the
 * first of them comes (a file with a single change stays a plain line).
 */
export function groupOccurrences(changes: readonly Change[]): ShownChange[] {
  const counts = new Map<string, number>();
  for (const change of changes) if (change.occurrence !== undefined && change.file !== null) counts.set(change.file, (counts.get(change.file) ?? 0) + 1);
  const groups = new Map<string, { file: string; changes: Change[] }>();
  const shown: ShownChange[] = [];
  for (const change of changes) {
    const file = change.occurrence === undefined ? undefined : change.file;
    if (file === undefined || file === null || (counts.get(file) ?? 0) < 2) {
      shown.push({ change });
      continue;
    }
    let group = groups.get(file);
    if (group === undefined) {
      group = { file, changes: [] };
      groups.set(file, group);
      shown.push(group);
    }
    group.changes.push(change);
  }
  return shown;
}
