import type { CreatePostBody, PatchPostBody, TargetInput } from '../api/types.js';
import type { PostShape } from '../content/types.js';
import { PostsyncError } from '../errors.js';
import type { FieldChange } from '../plan/types.js';
import type { ProjectState } from '../state/types.js';

/** Media ids of a shape's files, from the state's sha256 → media id records. */
export function mediaIdsFor(shape: PostShape, state: Pick<ProjectState, 'media'>): string[] {
  return shape.media.map((sha256) => {
    const record = state.media[sha256];
    if (!record) throw new PostsyncError(`media ${sha256.slice(0, 12)}… has no uploaded copy; its upload did not finish`);
    return record.mediaId;
  });
}

function targetInputs(shape: PostShape): TargetInput[] {
  return shape.targets.map((target) => ({
    socialAccountId: target.socialAccountId,
    ...(target.contentOverride !== undefined ? { contentOverride: target.contentOverride } : {}),
    ...(Object.keys(target.options).length > 0 ? { options: target.options } : {}),
  }));
}

/** Creates always make a draft: scheduling is a separate PATCH, so a create never needs posts-publish. */
export function createBody(shape: PostShape, state: Pick<ProjectState, 'media'>): CreatePostBody {
  return { content: shape.content, targets: targetInputs(shape), mediaIds: mediaIdsFor(shape, state) };
}

/** The draft a create produces: the shape without its schedule. */
export function draftOf(shape: PostShape): PostShape {
  return { ...shape, scheduledAt: null };
}

/** A PATCH carrying just the changed fields; targets and media are sent whole (the API replaces the lists). */
export function patchBody(shape: PostShape, fields: readonly FieldChange[], state: Pick<ProjectState, 'media'>): PatchPostBody {
  const changed = new Set(fields.map((field) => field.field.split(/[.[]/, 1)[0]));
  const body: PatchPostBody = {};
  if (changed.has('content')) body.content = shape.content;
  if (changed.has('targets')) body.targets = targetInputs(shape);
  if (changed.has('media')) body.mediaIds = mediaIdsFor(shape, state);
  if (changed.has('scheduledAt')) body.scheduledAt = shape.scheduledAt;
  return body;
}
