import type { ApiCall } from './context.js';
import { notFound, validationFailed } from './envelope.js';
import type { StoredMedia } from './model.js';
import { isUuid } from './validate.js';

/** The media named by the `:id` path parameter, in the caller's project (404 otherwise). */
export function findMedia(call: ApiCall): StoredMedia {
  const id = call.params.id ?? '';
  if (!isUuid(id)) throw validationFailed(['id must be a uuid']);
  const media = call.project.media.get(id.toLowerCase());
  if (!media) throw notFound(`media ${id}`);
  return media;
}
