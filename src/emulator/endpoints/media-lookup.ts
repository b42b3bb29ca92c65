import type { ApiCall } from '../http/context.js';
import { notFound, validationFailed } from '../protocol/envelope.js';
import type { StoredMedia } from '../store/model.js';
import { isUuid } from '../protocol/validate.js';

/** The media named by the `:id` path parameter, in the caller's project (404 otherwise). */
export function findMedia(call: ApiCall): StoredMedia {
  const id = call.params.id ?? '';
  if (!isUuid(id)) throw validationFailed(['id must be a uuid']);
  const media = call.project.media.get(id.toLowerCase());
  if (!media) throw notFound(`media ${id}`);
  return media;
}
