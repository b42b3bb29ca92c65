import { isScalar, type Node } from 'yaml';
import { InputError } from '../errors.js';
import { asMap, asSeq, entryAccount, FrontMatter, type Splice } from './front-matter.js';
import { mediaSplices, type MediaEdit } from './media-edit.js';
import { postFileParts } from './post-file-parts.js';
import { scalarText, type ScalarValue } from './scalar-text.js';
import { scheduledText } from './scheduled-text.js';
import { optionSplice, targetTextSplice, type OptionValue } from './target-edit.js';

/**
 * One change to a post file, as the calendar makes it. `occurrence` (a date, `YYYY-MM-DD`) names
 * one occurrence of a repeat: the change goes under `occurrences:` at that date instead.
 * - `schedule`: `scheduledAt` (a wall time in the project's zone, `YYYY-MM-DD HH:mm`), in the form
 *   the file wrote it (scheduled-text.ts: `offset` is the project's UTC offset at that time, which
 *   a time written with an offset or `Z` keeps); a `draft: true` of the file is removed, since the
 *   post is now meant to go out then;
 * - `unschedule`: back to a draft: `scheduledAt` removed (an occurrence gets `draft: true`);
 * - `text`: the body (an occurrence: its `content`), as its source with `{{ }}`;
 * - `accounts`: the accounts of `targets:`, as written (aliases): entries kept as they are, the
 *   missing ones added at the end, the others removed;
 * - `option`: one platform option of one account's entry (a list option takes a list);
 * - `target-text`: one account's own text (`content:`; empty: none, the account gets the body);
 * - the changes of `media:` (MediaEdit).
 */
export type PostEdit =
  | { kind: 'schedule'; at: string; offset?: string; occurrence?: string }
  | { kind: 'unschedule'; occurrence?: string }
  | { kind: 'text'; text: string; occurrence?: string }
  | { kind: 'accounts'; accounts: readonly string[] }
  | { kind: 'option'; account: string; name: string; value: OptionValue }
  | { kind: 'target-text'; account: string; text: string }
  | MediaEdit;

/** The file's text with `edit` made, every byte it does not name kept (comments, order, quotes, line endings). */
export function editPost(text: string, edit: PostEdit): string {
  const front = new FrontMatter(postFileParts(text));
  return spliced(text, splicesOf(front, edit));
}

function splicesOf(front: FrontMatter, edit: PostEdit): Splice[] {
  const occurrence = 'occurrence' in edit && edit.occurrence !== undefined ? ['occurrences', edit.occurrence] : null;
  switch (edit.kind) {
    case 'schedule': {
      const path = [...(occurrence ?? []), 'scheduledAt'];
      const at = scheduledText(edit.at, writtenText(front, path), edit.offset);
      if (occurrence !== null) return [front.set(path, at)];
      const draft = front.top('draft');
      const undraft = isScalar(draft) && draft.value === true ? front.removeTop('draft') : null;
      return [front.set(path, at), ...(undraft === null ? [] : [undraft])];
    }
    case 'unschedule': {
      if (occurrence !== null) return [front.set([...occurrence, 'draft'], true)];
      const removed = front.removeTop('scheduledAt');
      return removed === null ? [] : [removed];
    }
    case 'text':
      return occurrence !== null ? [front.set([...occurrence, 'content'], edit.text)] : [bodySplice(front, edit.text)];
    case 'accounts':
      return accountSplices(front, edit.accounts);
    case 'option':
      return [optionSplice(front, edit)];
    case 'target-text':
      return targetTextSplice(front, edit);
    default:
      return mediaSplices(front, edit);
  }
}

/** The text of the scalar at `path` (keys from the top), or null when there is none. */
function writtenText(front: FrontMatter, path: readonly string[]): string | null {
  let node: Node | null | undefined = front.top(path[0]!);
  for (const key of path.slice(1)) node = asMap(node)?.items.find((pair) => isScalar(pair.key) && String(pair.key.value) === key)?.value;
  return isScalar(node) && typeof node.value === 'string' ? node.value : null;
}

/** Splices that do not overlap, made from the end so each offset still holds. */
function spliced(text: string, splices: readonly Splice[]): string {
  let result = text;
  for (const splice of [...splices].sort((a, b) => b.start - a.start)) result = result.slice(0, splice.start) + splice.text + result.slice(splice.end);
  return result;
}

/** The body's text replaced; the blank lines before and after it kept, its lines ended as the file's. */
function bodySplice(front: FrontMatter, text: string): Splice {
  const { text: file, bodyStart, eol } = front.parts;
  const body = file.slice(bodyStart);
  const lines = text.replace(/\r\n?/g, '\n').split('\n').join(eol);
  const core = body.trim();
  const start = core === '' ? bodyStart : bodyStart + body.indexOf(core);
  // A file without front-matter that would start with `---` would have its text read as front-matter: an empty one goes first.
  const opens = front.parts.frontMatter === null && file.slice(0, start).replace(/^\uFEFF/, '') === '' && lines.startsWith('---') ? `---${eol}---${eol}` : '';
  // A closing `---` that ends the file gets its line break: the text goes on the next line.
  const closed = front.parts.frontMatter !== null && bodyStart === file.length && !file.endsWith('\n') ? eol : '';
  if (core === '') return { start, end: file.length, text: `${closed}${opens}${lines}${eol}` };
  return { start, end: start + core.length, text: `${opens}${lines}` };
}

function accountSplices(front: FrontMatter, accounts: readonly string[]): Splice[] {
  const value = front.top('targets');
  const list = asSeq(value);
  if (list === null) {
    const text = `[${accounts.map((account) => scalarText(account)).join(', ')}]`;
    if (value === undefined || value === null || (isScalar(value) && value.value === null)) return [front.set(['targets'], { yaml: text })];
    throw new InputError('`targets` is not a list in this file, so postsync cannot change its accounts', { hint: 'Write `targets:` as a list of accounts in an editor.' });
  }
  const names = list.items.map(entryAccount);
  const kept = list.items.filter((_, index) => accounts.includes(names[index] ?? ''));
  const added = accounts.filter((account) => !names.includes(account));
  if (list.flow === true || kept.length === 0) {
    const items = [...kept.map((item) => front.source(item)), ...added.map((account) => scalarText(account))];
    if (list.flow === true) return [front.replace(list, `[${items.join(', ')}]`)];
    // A block list left with none of its entries: it becomes a flow list on the key's line.
    return [front.replaceTop('targets', `[${items.join(', ')}]`)!];
  }
  const splices: Splice[] = list.items.filter((item) => !kept.includes(item)).map((item) => ({ start: front.lineStart(front.at(item.range![0])), end: front.endOfLine(front.at(item.range![1])), text: '' }));
  if (added.length > 0) {
    const first = front.at(list.items[0]!.range![0]);
    const dash = front.at(list.range![0]);
    // The first entry's `- ` as written; an entry on the line after its dash gets a dash of its own.
    const written = front.parts.text.slice(front.lineStart(first), first);
    const prefix = /^[ \t]*-[ \t]+$/.test(written) ? written : `${front.parts.text.slice(front.lineStart(dash), dash)}- `;
    const at = front.endOfLine(front.at(list.items.at(-1)!.range![1]));
    splices.push({ start: at, end: at, text: added.map((account) => `${prefix}${scalarText(account)}${front.parts.eol}`).join('') });
  }
  return splices;
}
