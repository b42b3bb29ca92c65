import { requiredArray, requiredObject } from './read-fields.js';
import type { Capabilities } from './types.js';

/** The objects of a capabilities answer the checks of posts and media read field by field. */
const OBJECTS = ['account', 'rules', 'rules.caption', 'rules.attachments', 'rules.media', 'rules.media.images', 'rules.media.videos'];
/** The lists they search. */
const LISTS = ['rules.media.images.contentTypes', 'rules.media.videos.contentTypes', 'rules.media.videos.videoCodecs', 'rules.media.videos.audioCodecs'];

/**
 * `data` of GET /accounts/{id}/capabilities, checked for the structure postsync reads (a missing
 * part is a `ResponseShapeError`, not a TypeError in a check). Values stay as sent: unknown words
 * are judged where they are used, and `rules.options` in any vocabulary (`knownOptionRules`).
 */
export function readCapabilities(data: unknown, accountId: string): Capabilities {
  const endpoint = `GET /accounts/${accountId}/capabilities`;
  for (const path of OBJECTS) requiredObject(endpoint, data, path);
  for (const path of LISTS) requiredArray(endpoint, data, path);
  return data as Capabilities;
}
