import { originOf, sourcesOfField } from '../content/origins.js';
import type { DesiredPost } from '../content/types.js';
import type { PostRecord } from '../state/types.js';
import type { FieldChange, FieldOrigin } from './types.js';

/**
 * Each changed field with the sources it changed through since the last apply: those of its sources
 * whose digest differs from the one the state record keeps (a source the record does not know is
 * new, so changed). A field none of whose sources changed (the time zone of postsync.yaml moved a
 * time) is attributed to nothing. Undefined when the record or the post keeps no sources (a record
 * written before they were kept): nothing is known, so nothing is claimed.
 */
export function fieldOrigins(fields: readonly FieldChange[], post: Pick<DesiredPost, 'file' | 'origins'>, record: Pick<PostRecord, 'sources'>): FieldOrigin[] | undefined {
  const { origins } = post;
  const applied = record.sources;
  if (origins === undefined || applied === undefined) return undefined;
  return fields.flatMap((change) =>
    sourcesOfField(origins, change.field)
      .filter((id) => applied[id] !== origins.digests[id])
      .map((id) => ({ field: change.field, source: originOf(id, post.file) })),
  );
}

/** The digests a change hands to the state record (`PostRecord.sources`). */
export function sourcesOf(post: Pick<DesiredPost, 'origins'>): { sources?: Record<string, string> } {
  return post.origins === undefined ? {} : { sources: post.origins.digests };
}
