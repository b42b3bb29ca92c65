/**
 * Minimal edits of post files (pure): one change to the front-matter or the body of a file's
 * text, every other byte kept, so `git diff` shows exactly that change. The calendar of
 * `watch --calendar` writes its edits with it.
 */
export { editPost, type PostEdit } from './edit-post.js';
export { newDraftText, duplicateText } from './new-post.js';
export type { ScalarValue } from './scalar-text.js';
export { mediaEntries, type MediaEdit, type MediaEntry } from './media-edit.js';
export { targetTexts, type OptionValue } from './target-edit.js';
