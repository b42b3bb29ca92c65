import { isMap, isScalar, isSeq, parseDocument, visit, type Node, type Pair, type Scalar, type YAMLMap, type YAMLSeq } from 'yaml';
import { InputError } from '../errors.js';
import type { PostFileParts } from './post-file-parts.js';
import { scalarText, type ScalarValue } from './scalar-text.js';

/** New text for [start, end) of the file. */
export interface Splice {
  start: number;
  end: number;
  text: string;
}

type MapPair = Pair<Scalar, Node | null>;

/**
 * The front-matter of one post file as YAML nodes with their offsets in the file, and the splices
 * that change one value each: a scalar rewritten in its own style, a key added after its map's
 * last entry (at that entry's indentation, or inside the braces of a flow map), a top-level key's
 * lines removed. Nothing is serialized again: every byte outside a splice stays.
 */
export class FrontMatter {
  readonly parts: PostFileParts;
  readonly #root: YAMLMap<Scalar, Node | null> | null;
  readonly #base: number;

  constructor(parts: PostFileParts) {
    this.parts = parts;
    this.#base = parts.frontMatter?.start ?? 0;
    if (parts.frontMatter === null) {
      this.#root = null;
      return;
    }
    const source = parts.text.slice(parts.frontMatter.start, parts.frontMatter.end);
    const doc = parseDocument(source, { keepSourceTokens: true, uniqueKeys: true });
    if (doc.errors.length > 0) {
      throw new InputError(`the front-matter of this file does not parse (${doc.errors[0]!.message.split('\n')[0]}), so postsync cannot edit it`, { hint: 'Fix the front-matter in an editor (postsync validate names the line), then edit it here again.' });
    }
    if (doc.contents !== null && !isMap(doc.contents)) throw new InputError('the front-matter of this file is not a mapping of fields, so postsync cannot edit it', { hint: 'Fix the front-matter in an editor, then edit it here again.' });
    // An edit of an anchored value would change each alias of it too, and removing it would leave the aliases dangling.
    let aliased = false;
    visit(doc, { Alias: () => void (aliased = true) });
    if (aliased) throw new InputError('the front-matter of this file uses a YAML alias (`*name`), so an edit of one field could change others: postsync does not edit it', { hint: 'Write the value out where the alias is, in an editor, then edit it here again.' });
    // Its keys share lines: removing or adding one by its lines would take the others with it.
    if (isMap(doc.contents) && doc.contents.flow === true) throw new InputError('the front-matter of this file is one flow mapping (`{ … }`), so postsync cannot edit it', { hint: 'Write the front-matter one field per line (`scheduledAt: …`) in an editor, then edit it here again.' });
    this.#root = doc.contents as YAMLMap<Scalar, Node | null> | null;
  }

  /** The value at a top-level key, or undefined. */
  top(key: string): Node | null | undefined {
    return this.#root === null ? undefined : pairOf(this.#root, key)?.value;
  }

  /** Sets the scalar at `path` (keys from the top), adding the keys that are missing. */
  set(path: readonly string[], value: ScalarValue | YamlText, within: YAMLMap<Scalar, Node | null> | null = this.#root): Splice {
    if (within === null) return this.#addTop(pairText(path, value));
    let map = within;
    for (const [index, key] of path.entries()) {
      const pair = pairOf(map, key);
      const rest = path.slice(index + 1);
      if (pair === undefined) return this.#addPair(map, pairText(path.slice(index), value));
      const node = pair.value;
      if (rest.length === 0 && node !== null && !isScalar(node) && typeof value !== 'object') throw new InputError(`\`${path.join('.')}\` is not a single value in this file, so postsync cannot set it`, { hint: 'Edit this field in an editor.' });
      if (rest.length === 0 || node === null || (isScalar(node) && node.value === null)) return this.#replaceValue(pair, rest.length === 0 ? valueText(value, isScalar(node) ? node.type : undefined) : flowText(rest, value));
      if (!isMap(node)) throw new InputError(`\`${path.slice(0, index + 1).join('.')}\` is not a mapping in this file, so postsync cannot set \`${path.join('.')}\``, { hint: 'Edit this field in an editor.' });
      map = node as YAMLMap<Scalar, Node | null>;
    }
    throw new Error('unreachable: a path has at least one key');
  }

  /** Writes `text` as the whole value of a top-level key that holds a block collection: its lines become the one line of the key. */
  replaceTop(key: string, text: string): Splice | null {
    const pair = this.#root === null ? undefined : pairOf(this.#root, key);
    if (pair === undefined) return null;
    const colon = this.parts.text.indexOf(':', this.#at(pair.key.range![1]));
    return { start: colon + 1, end: this.#valueEnd(pair), text: ` ${text}${this.parts.eol}` };
  }

  /**
   * Removes the key `key` of `map` and its value; null when it is absent. In a block mapping its
   * lines go (or, when a list's dash is before it, the text up to the next key); in a flow mapping
   * the key and its comma go.
   */
  removeIn(map: YAMLMap<Scalar, Node | null>, key: string): Splice | null {
    const index = map.items.findIndex((pair) => isScalar(pair.key) && String(pair.key.value) === key);
    if (index === -1) return null;
    const pair = map.items[index]!;
    const start = this.#at(pair.key.range![0]);
    const next = map.items[index + 1];
    const end = this.#at((pair.value ?? pair.key).range![1]);
    if (map.flow === true) {
      if (index > 0) return { start: this.#at((map.items[index - 1]!.value ?? map.items[index - 1]!.key).range![1]), end, text: '' };
      return { start, end: next === undefined ? end : this.#at(next.key.range![0]), text: '' };
    }
    const lead = this.parts.text.slice(this.lineStart(start), start);
    if (/^[ \t]*$/.test(lead) || next === undefined) return { start: /^[ \t]*$/.test(lead) ? this.lineStart(start) : start, end: this.#valueEnd(pair), text: '' };
    return { start, end: this.#at(next.key.range![0]), text: '' };
  }

  /** Removes a top-level key and its value: its lines. Null when the key is absent. */
  removeTop(key: string): Splice | null {
    const pair = this.#root === null ? undefined : pairOf(this.#root, key);
    if (pair === undefined) return null;
    return { start: this.lineStart(this.#at(pair.key.range![0])), end: this.#valueEnd(pair), text: '' };
  }

  /** Replaces a node's text (a scalar or a flow collection); a block scalar's text ends with its line break, which stays. */
  replace(node: Node, text: string): Splice {
    const [start, end] = [this.#at(node.range![0]), this.#at(node.range![1])];
    const lineBreak = this.parts.text[end - 1] === '\n' && !text.endsWith('\n') ? this.parts.eol : '';
    return { start, end, text: `${text}${lineBreak}` };
  }

  /** The source text of a node. */
  source(node: Node): string {
    return this.parts.text.slice(this.#at(node.range![0]), this.#at(node.range![1]));
  }

  /** Where the line holding `offset` starts. */
  lineStart(offset: number): number {
    return this.parts.text.lastIndexOf('\n', offset - 1) + 1;
  }

  /** Where the line after the one holding the end of a node starts (a value that ends with its line break ends there). */
  endOfLine(end: number): number {
    if (end > 0 && this.parts.text[end - 1] === '\n') return end;
    const next = this.parts.text.indexOf('\n', end);
    return next === -1 ? this.parts.text.length : next + 1;
  }

  /** A file offset of a node's offset. */
  at(offset: number): number {
    return this.#at(offset);
  }

  #at(offset: number): number {
    return this.#base + offset;
  }

  #valueEnd(pair: MapPair): number {
    const node = pair.value ?? pair.key;
    return this.endOfLine(this.#at(node.range![1]));
  }

  #replaceValue(pair: MapPair, text: string): Splice {
    const node = pair.value;
    // A value written out (`~` and `null` too) is replaced where it is.
    if (node !== null && node.range != null && node.range[1] > node.range[0]) return this.replace(node, text);
    // `key:` with nothing after it (a comment may follow): the value goes right after the colon.
    const colon = this.parts.text.indexOf(':', this.#at(pair.key.range![1]));
    return { start: colon + 1, end: colon + 1, text: ` ${text}` };
  }

  #addTop(text: string): Splice {
    const { eol, frontMatter } = this.parts;
    if (frontMatter === null) return { start: this.parts.bodyStart, end: this.parts.bodyStart, text: `---${eol}${text}${eol}---${eol}` };
    return { start: frontMatter.end, end: frontMatter.end, text: `${text}${eol}` };
  }

  #addPair(map: YAMLMap<Scalar, Node | null>, text: string): Splice {
    const last = map.items.at(-1);
    if (last === undefined) {
      if (map === this.#root || map.range == null) return this.#addTop(text);
      const close = this.parts.text.lastIndexOf('}', this.#at(map.range[1]));
      return { start: close, end: close, text: ` ${text} ` };
    }
    if (map.flow === true) {
      const end = this.#at((last.value ?? last.key).range![1]);
      return { start: end, end, text: `, ${text}` };
    }
    const first = this.#at(map.items[0]!.key.range![0]);
    // At the first key's column: a map that is an entry of a block list (`- account: video`) has its dash before that key, which the new line must not repeat.
    const indent = this.parts.text.slice(this.lineStart(first), first).replace(/[^\t ]/g, ' ');
    const at = this.#valueEnd(last);
    const lead = at > 0 && this.parts.text[at - 1] !== '\n' ? this.parts.eol : '';
    return { start: at, end: at, text: `${lead}${indent}${text}${this.parts.eol}` };
  }
}

/** The pair of `key` in `map`, or undefined. */
export function pairOf(map: YAMLMap<Scalar, Node | null>, key: string): MapPair | undefined {
  return map.items.find((pair) => isScalar(pair.key) && String(pair.key.value) === key);
}

/** YAML text to write as it is (a flow collection). */
export interface YamlText {
  yaml: string;
}

function valueText(value: ScalarValue | YamlText, like?: Scalar.Type): string {
  return typeof value === 'object' && value !== null ? value.yaml : scalarText(value, like);
}

/** `a: { b: value }` for the path [a, b]. */
function pairText(path: readonly string[], value: ScalarValue | YamlText): string {
  return `${scalarText(path[0]!)}: ${path.length === 1 ? valueText(value) : flowText(path.slice(1), value)}`;
}

function flowText(path: readonly string[], value: ScalarValue | YamlText): string {
  return `{ ${pairText(path, value)} }`;
}

/** The name a `targets:` entry writes its account as: the entry itself, or its `account:`. */
export function entryAccount(entry: unknown): string | null {
  if (isScalar(entry)) return entry.value === null ? null : String(entry.value);
  if (isMap(entry)) {
    const account = (entry as YAMLMap<Scalar, Node | null>).items.find((pair) => isScalar(pair.key) && pair.key.value === 'account')?.value;
    return isScalar(account) ? String(account.value) : null;
  }
  return null;
}

export function asSeq(node: Node | null | undefined): YAMLSeq<Node> | null {
  return node !== null && node !== undefined && isSeq(node) ? (node as YAMLSeq<Node>) : null;
}

export function asMap(node: Node | null | undefined): YAMLMap<Scalar, Node | null> | null {
  return node !== null && node !== undefined && isMap(node) ? (node as YAMLMap<Scalar, Node | null>) : null;
}
