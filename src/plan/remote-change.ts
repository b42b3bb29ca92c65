import type { PostShape } from '../content/types.js';
import { shapeHash } from '../content/shape-hash.js';
import type { PostRecord } from '../state/types.js';
import { leftToService } from './live-shape.js';
import { tidiedHash } from './tidied-shape.js';

/**
 * Whether someone changed a post on the remote since postsync last wrote it: the live shape is not
 * what the service answered then (`observedHash`), so a form the service tidied is no change. A
 * record from before observed shapes has only the applied hash: with the file as applied
 * (`file.asApplied`), the live post is unchanged when it is that file, tidying, options left to
 * the service and media it derived aside (the first apply then records what it reads); else it must be the applied shape
 * exactly (options the file leaves to the service aside, when the file is known).
 */
export function changedOnRemote(record: Pick<PostRecord, 'observedHash' | 'appliedHash'>, live: PostShape, file?: { shape: PostShape; asApplied: boolean }): boolean {
  if (record.observedHash !== undefined) return shapeHash(live) !== record.observedHash;
  if (file === undefined) return shapeHash(live) !== record.appliedHash;
  const kept = leftToService(live, file.shape);
  return file.asApplied ? tidiedHash(withoutUnknownMedia(kept)) !== tidiedHash(file.shape) : shapeHash(kept) !== record.appliedHash;
}

/**
 * A live shape without the media no upload of this state made (`id:`): an item the service derived
 * (a thumbnail). Only for the one comparison of a record from before observed shapes, whose apply
 * then records the post as observed with them.
 */
function withoutUnknownMedia(shape: PostShape): PostShape {
  return { ...shape, media: shape.media.filter((sha256) => !sha256.startsWith('id:')) };
}
