import { isScalar } from 'yaml';
import { FrontMatter } from './front-matter.js';
import { postFileParts } from './post-file-parts.js';
import { scalarText } from './scalar-text.js';

/** The text a new post starts with: a person replaces it in the editor that opens on it. */
export const NEW_DRAFT_TEXT = 'New post';

/**
 * A new draft's file: `draft: true` (it goes out only once someone schedules it), the time it was
 * made for when it was made on a day or a slot, and no account yet, with a comment on what to do.
 */
export function newDraftText(options: { at?: string }): string {
  return [
    '---',
    '# A draft made in the calendar: choose its accounts, write its text, then schedule it.',
    ...(options.at === undefined ? [] : [`scheduledAt: ${scalarText(options.at)}`]),
    'draft: true',
    'targets: []',
    '---',
    NEW_DRAFT_TEXT,
    '',
  ].join('\n');
}

/**
 * A copy of a post file for a new file: the same text, with `suffix` added to its `id:` when it
 * sets one, so that the copy is a post of its own and not a second file of the same key (without
 * an `id:`, the new file's name is its key).
 */
export function duplicateText(text: string, suffix: string): string {
  const front = new FrontMatter(postFileParts(text));
  const id = front.top('id');
  if (!isScalar(id) || id.value === null) return text;
  const splice = front.set(['id'], `${String(id.value)}${suffix}`);
  return text.slice(0, splice.start) + splice.text + text.slice(splice.end);
}
