import type { DesiredMedia } from '../content/types.js';
import type { MediaRecord } from '../state/types.js';
import type { FieldChange, MediaFile } from './types.js';

/**
 * How a post's media list changed, one entry per file, for views to name (structured: the views
 * own the words). `position` counts from 1, in the list the file is (or was) in.
 * - `added`, `removed`: bytes only the new (old) list has.
 * - `replaced`: new bytes where the old list had other bytes that are gone (the same path when
 *   both are known; else the same place in the list: a file edited in place, or another file put
 *   there).
 * - `reordered`: the files both lists have, in their new order, when that order changed.
 */
export type MediaDelta =
  | { kind: 'added'; file: MediaFile; position: number }
  | { kind: 'removed'; file: MediaFile; position: number }
  | { kind: 'replaced'; before: MediaFile; after: MediaFile; position: number }
  | { kind: 'reordered'; files: MediaFile[] };

/** The media deltas from `before` to `after` (lists of files in post order), in the new list's order, removals last. */
export function mediaDeltas(before: readonly MediaFile[], after: readonly MediaFile[]): MediaDelta[] {
  const beforeShas = new Set(before.map((file) => file.sha256));
  const afterShas = new Set(after.map((file) => file.sha256));
  const gone = before.map((file, index) => ({ file, index })).filter(({ file }) => !afterShas.has(file.sha256));
  const fresh = after.map((file, index) => ({ file, index })).filter(({ file }) => !beforeShas.has(file.sha256));
  const paired = new Map<number, { file: MediaFile; index: number }>();
  const take = (match: (old: { file: MediaFile; index: number }, index: number) => boolean) => {
    for (const { index } of fresh) {
      if (paired.has(index)) continue;
      const old = gone.find((candidate) => ![...paired.values()].includes(candidate) && match(candidate, index));
      if (old !== undefined) paired.set(index, old);
    }
  };
  take((old, index) => old.file.path !== undefined && old.file.path === after[index]!.path);
  take((old, index) => old.index === index && old.file.path === undefined);

  const deltas: MediaDelta[] = [];
  for (const { file, index } of fresh) {
    const old = paired.get(index);
    deltas.push(old === undefined ? { kind: 'added', file, position: index + 1 } : { kind: 'replaced', before: old.file, after: file, position: index + 1 });
  }
  const pairedOld = new Set([...paired.values()]);
  for (const old of gone) if (!pairedOld.has(old)) deltas.push({ kind: 'removed', file: old.file, position: old.index + 1 });
  const keptBefore = before.filter((file) => afterShas.has(file.sha256)).map((file) => file.sha256);
  const keptAfter = after.filter((file) => beforeShas.has(file.sha256));
  if (keptBefore.join() !== keptAfter.map((file) => file.sha256).join()) deltas.push({ kind: 'reordered', files: keptAfter });
  return deltas;
}

/**
 * `fields` with the media field's files named: the new list from the post's files (path, size),
 * the old one by what the state knows of its bytes (size). Views classify them (`mediaDeltas`).
 */
export function withMediaFiles(fields: FieldChange[], media: readonly DesiredMedia[], records: Readonly<Record<string, MediaRecord>>): FieldChange[] {
  return fields.map((field) => {
    if (field.field !== 'media' || !Array.isArray(field.before) || !Array.isArray(field.after)) return field;
    const byHash = new Map(media.map((file) => [file.sha256, file]));
    const named = (sha256: string): MediaFile => {
      const file = byHash.get(sha256);
      if (file !== undefined) return { sha256, path: file.path, sizeBytes: file.sizeBytes };
      const record = Object.hasOwn(records, sha256) ? records[sha256] : undefined;
      return record === undefined ? { sha256 } : { sha256, sizeBytes: record.sizeBytes };
    };
    return { ...field, files: { before: (field.before as string[]).map(named), after: (field.after as string[]).map(named) } };
  });
}

/** The media deltas of a media field change, or null for another field (or one planned by a postsync that named no files). */
export function mediaDeltasOf(field: FieldChange): MediaDelta[] | null {
  return field.field === 'media' && field.files !== undefined ? mediaDeltas(field.files.before, field.files.after) : null;
}
