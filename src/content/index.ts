/** Content reading: files → validated, normalized DesiredPosts plus every diagnostic. */
export { readContent, combineContentResults, type ContentResult } from './read-content.js';
export { readContentFile, type ContentConfig, type ContentFileResult, type ReadContentOptions } from './read-file.js';
export { discoverPostFiles } from './discover.js';
export { checkAgainstCapabilities } from './capability-checks.js';
export { MediaMemo, sha256File, type KeptMediaFacts } from './media-memo.js';
export type { MediaFacts, Prober, ProbeResult } from './types.js';
export { MAX_CONTENT_CHARACTERS } from './normalize-post.js';
export { postKeyFromPath } from './post-key.js';
export type { AcceptPastSchedule } from './schedule-check.js';
export { parseScheduledAt } from '../zoned-time/scheduled-at.js';
export { textLength } from './text-length.js';
export type * from './types.js';
