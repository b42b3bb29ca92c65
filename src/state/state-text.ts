import { randomBytes } from 'node:crypto';
import { prettyCanonicalJson } from './hash.js';
import type { PostRecord, StateFile } from './types.js';

/** Nesting of a post record in the file: root → targets → <target id> → posts → <key>. */
const RECORD_DEPTH = 4;
const indent = (depth: number): string => '  '.repeat(depth);

/**
 * Renders a state file as `prettyCanonicalJson(file)` does, byte for byte, without serializing
 * every post record on every write. The applier writes the state after each change, so a write
 * must cost what changed, not the size of the state: a record's text is kept
 * per record object (the store replaces a record object whenever it changes it, and never edits
 * one in place), and each section's `posts` map is joined from those texts in key order.
 */
export class StateFileText {
  /** Per record object: its key and its whole `"key": {...}` entry text. */
  readonly #entries = new WeakMap<PostRecord, { key: string; text: string }>();

  render(file: StateFile): string {
    // The small rest of the file goes through the canonical serializer with each `posts` map
    // replaced by a marker string, which is then swapped for the joined records.
    const marker = `\u0000posts-${randomBytes(8).toString('hex')}-`;
    const postsTexts = new Map<string, string>();
    const targets = Object.fromEntries(
      Object.entries(file.targets).map(([id, section], index) => {
        const tag = `${marker}${index}`;
        postsTexts.set(JSON.stringify(tag), this.#posts(section.posts));
        return [id, { ...section, posts: tag }];
      }),
    );
    let text = prettyCanonicalJson({ ...file, targets });
    for (const [quotedTag, posts] of postsTexts) text = text.replace(quotedTag, () => posts);
    return text;
  }

  #posts(posts: Record<string, PostRecord>): string {
    const entries: string[] = [];
    for (const key of Object.keys(posts).sort()) {
      const record = posts[key];
      if (record !== undefined) entries.push(this.#entry(key, record));
    }
    return entries.length === 0 ? '{}' : `{\n${entries.join(',\n')}\n${indent(RECORD_DEPTH - 1)}}`;
  }

  #entry(key: string, record: PostRecord): string {
    const cached = this.#entries.get(record);
    if (cached !== undefined && cached.key === key) return cached.text;
    const body = prettyCanonicalJson(record).slice(0, -1).replaceAll('\n', `\n${indent(RECORD_DEPTH)}`);
    const text = `${indent(RECORD_DEPTH)}${JSON.stringify(key)}: ${body}`;
    this.#entries.set(record, { key, text });
    return text;
  }
}
