import { checkedValue, requiredArray, requiredObject, ResponseShapeError, valueAt } from './read-fields.js';
import type { Capabilities } from './types.js';

/** The objects of a capabilities answer the checks of posts and media read field by field. */
const OBJECTS = ['account', 'rules', 'rules.caption', 'rules.attachments', 'rules.media', 'rules.media.images', 'rules.media.videos'];
/** The lists they search: lists of texts. */
const LISTS = ['rules.media.images.contentTypes', 'rules.media.videos.contentTypes', 'rules.media.videos.videoCodecs', 'rules.media.videos.audioCodecs'];
/** The limits they compare with: numbers when they are there. */
const NUMBERS = [
  'rules.caption.maxLength',
  'rules.attachments.min',
  'rules.attachments.max',
  'rules.attachments.maxVideos',
  'rules.attachments.storyMax',
  'rules.media.images.maxBytes',
  'rules.media.videos.maxBytes',
  'rules.media.videos.minDurationSeconds',
  'rules.media.videos.maxDurationSeconds',
  'rules.maxShortDurationSeconds',
  'rules.maxVideoDurationSeconds',
];
/** Words they print or compare: texts when they are there. */
const TEXTS = ['account.platform', 'account.status', 'rules.caption.lengthUnit', 'rules.caption.requiredExcept', 'reason'];

/**
 * `data` of GET /accounts/{id}/capabilities, checked for the structure and the types postsync reads
 * (a missing part or a value of another type is a `ResponseShapeError`, not a TypeError in a check,
 * nor a limit that compares as never reached). Values stay as sent: unknown words are judged where
 * they are used, and `rules.options` in any vocabulary (`knownOptionRules`).
 */
export function readCapabilities(data: unknown, accountId: string): Capabilities {
  const endpoint = `GET /accounts/${accountId}/capabilities`;
  for (const path of OBJECTS) requiredObject(endpoint, data, path);
  for (const path of LISTS) {
    // An item is never left out: a null among the texts is of the wrong type too.
    requiredArray(endpoint, data, path).forEach((item, index) => {
      if (typeof item !== 'string') throw new ResponseShapeError(endpoint, `${path}[${index}]`, item, 'is not a text');
    });
  }
  for (const [paths, type] of [[NUMBERS, 'number'], [TEXTS, 'text']] as const) for (const path of paths) checkedValue(endpoint, path, valueAt(data, path), type);
  return data as Capabilities;
}
