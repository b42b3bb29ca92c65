import { InputError } from '../errors.js';

/**
 * A post file cut where an edit works: the front-matter's YAML text (between the `---` lines) and
 * the body, as offsets into the file's text, and the line ending the file uses. Nothing is
 * decoded or normalized: an edit splices new text in at these offsets and keeps every other byte.
 */
export interface PostFileParts {
  text: string;
  /** `\r\n` when the file's first line ends so, else `\n`. */
  eol: string;
  /** The front-matter's YAML: [start, end) of `text`; null when the file has none. */
  frontMatter: { start: number; end: number } | null;
  /** Where the body starts (after the closing `---` line). */
  bodyStart: number;
}

/** After a byte order mark, if the file starts with one (it is kept). */
const OPENING = /^\uFEFF?---[ \t]*\r?\n/;
/** A first line the post parser (gray-matter) reads as an opening too (`---yaml`), but no edit can keep as one; `----` opens nothing. */
const OTHER_OPENING = /^\uFEFF?---(?!-)/;
/** The post parser closes the front-matter at the first line that starts with `---`: so does an edit, and that line must be just `---`. */
const CLOSING = /(^|\n)---([^\n]*)(\n|$)/;

export function postFileParts(text: string): PostFileParts {
  const eol = /^[^\n]*\r\n/.test(text) ? '\r\n' : '\n';
  const opening = OPENING.exec(text);
  if (opening === null && OTHER_OPENING.test(text)) {
    throw new InputError('the first line of this file starts with `---` but is not just `---`, so postsync cannot edit its front-matter', { hint: 'Make the first line exactly `---` in an editor, then edit it here again.' });
  }
  if (opening === null) return { text, eol, frontMatter: null, bodyStart: text.startsWith('\uFEFF') ? 1 : 0 };
  const start = opening[0].length;
  // From the opening line's own line break, so an empty front-matter (`---` right after) closes too.
  const found = CLOSING.exec(text.slice(start - 1));
  const closing = found === null ? null : Object.assign(found, { index: found.index + start - 1 });
  if (closing === null) {
    throw new InputError('the front-matter of this file is not closed, so postsync cannot edit it', { hint: 'Add a line `---` after the front-matter in an editor, then edit it here again.' });
  }
  if (!/^[ \t]*\r?$/.test(closing[2]!)) {
    throw new InputError(`the front-matter of this file ends at a line ${JSON.stringify(`---${closing[2]!.replace(/\r$/, '')}`)}, not \`---\`, so postsync cannot edit it`, { hint: 'Make the line that closes the front-matter exactly `---` in an editor, then edit it here again.' });
  }
  const end = closing.index + closing[1]!.length;
  return { text, eol, frontMatter: { start, end: Math.max(start, end) }, bodyStart: closing.index + closing[0].length };
}
