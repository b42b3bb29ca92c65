import { isScalar, type Node, type YAMLSeq } from 'yaml';
import { InputError } from '../errors.js';
import { asMap, asSeq, FrontMatter, type Splice } from './front-matter.js';
import { postFileParts } from './post-file-parts.js';
import { scalarText } from './scalar-text.js';

/**
 * A change to the post's `media:` list, each file named by its place in the list as the file
 * has it (0 first):
 * - `media-add`: a file at the end (its path as `media:` writes paths), with alt text or none;
 * - `media-alt`: a file's alt text (empty: none);
 * - `media-path`: another file in its place, its alt text kept;
 * - `media-remove`: a file out of the list (the file itself stays where it is);
 * - `media-move`: a file to another place.
 */
export type MediaEdit =
  | { kind: 'media-add'; path: string; alt?: string }
  | { kind: 'media-alt'; index: number; alt: string }
  | { kind: 'media-path'; index: number; path: string }
  | { kind: 'media-remove'; index: number }
  | { kind: 'media-move'; from: number; to: number };

/** A `media:` entry as written: its path, and its alt text when it has one. */
export interface MediaEntry {
  path: string;
  alt?: string;
}

/** The `media:` entries of a post file's text, as written (none when it has none, or they cannot be read). */
export function mediaEntries(text: string): MediaEntry[] {
  const parts = postFileParts(text);
  if (parts.frontMatter === null) return [];
  let list: YAMLSeq<Node> | null;
  try {
    list = asSeq(new FrontMatter(parts).top('media'));
  } catch {
    return [];
  }
  return (list?.items ?? []).flatMap((item): MediaEntry[] => {
    if (isScalar(item)) return typeof item.value === 'string' ? [{ path: item.value }] : [];
    const map = asMap(item);
    const path = map?.get('path');
    const alt = map?.get('alt');
    return typeof path === 'string' ? [{ path, ...(typeof alt === 'string' ? { alt } : {}) }] : [];
  });
}

export function mediaSplices(front: FrontMatter, edit: MediaEdit): Splice[] {
  const value = front.top('media');
  const list = asSeq(value);
  if (edit.kind === 'media-add') {
    const entry = entryText(edit.path, edit.alt ?? '');
    if (list === null) {
      if (value === undefined || value === null || (isScalar(value) && value.value === null)) return [front.set(['media'], { yaml: `[${entry}]` })];
      throw notAList();
    }
    if (list.items.length === 0) return [front.replace(list, `[${entry}]`)];
    const lastEnd = front.at(list.items.at(-1)!.range![1]);
    if (list.flow === true) return [{ start: lastEnd, end: lastEnd, text: `, ${entry}` }];
    const first = front.at(list.items[0]!.range![0]);
    const at = front.endOfLine(lastEnd);
    return [{ start: at, end: at, text: `${front.parts.text.slice(front.lineStart(first), first)}${entry}${front.parts.eol}` }];
  }
  if (list === null) throw notAList();
  const item = (index: number): Node => {
    const found = list.items[index];
    if (found === undefined || !Number.isInteger(index)) throw new InputError(`this post has no media file ${index + 1} (it has ${list.items.length})`, { hint: 'The file changed since the page read it? Open the editor again.' });
    return found;
  };
  switch (edit.kind) {
    case 'media-alt': {
      const node = item(edit.index);
      const map = asMap(node);
      if (map === null) return edit.alt === '' ? [] : [front.replace(node, entryText(String((node as { value?: unknown }).value), edit.alt))];
      if (edit.alt !== '') return [front.set(['alt'], edit.alt, map)];
      const removed = front.removeIn(map, 'alt');
      return removed === null ? [] : [removed];
    }
    case 'media-path': {
      const node = item(edit.index);
      const map = asMap(node);
      if (map !== null) return [front.set(['path'], edit.path, map)];
      return [front.replace(node, scalarText(edit.path, isScalar(node) ? node.type : undefined))];
    }
    case 'media-remove': {
      const node = item(edit.index);
      if (list.items.length === 1) return [front.removeTop('media')!];
      const [start, end] = [front.at(node.range![0]), front.at(node.range![1])];
      if (list.flow !== true) return [{ start: front.lineStart(start), end: front.endOfLine(end), text: '' }];
      // In a flow list: the item and the comma before it (the first one: the comma after it).
      if (edit.index > 0) return [{ start: front.at(list.items[edit.index - 1]!.range![1]), end, text: '' }];
      return [{ start, end: front.at(list.items[1]!.range![0]), text: '' }];
    }
    case 'media-move': {
      item(edit.from);
      item(edit.to);
      // The items between the two places each take the text of their neighbour: only their own text changes.
      const texts = list.items.map((node) => front.source(node).replace(/\r?\n$/, ''));
      const [moved] = texts.splice(edit.from, 1);
      texts.splice(edit.to, 0, moved!);
      const [low, high] = [Math.min(edit.from, edit.to), Math.max(edit.from, edit.to)];
      return list.items.slice(low, high + 1).map((node, offset) => front.replace(node, texts[low + offset]!));
    }
  }
}

/** A media entry as `media:` writes it: the path alone, or with its alt text. */
function entryText(path: string, alt: string): string {
  return alt === '' ? scalarText(path) : `{ path: ${scalarText(path)}, alt: ${scalarText(alt)} }`;
}

function notAList(): InputError {
  return new InputError('`media` is not a list in this file, so postsync cannot change its media', { hint: 'Write `media:` as a list of files in an editor.' });
}
