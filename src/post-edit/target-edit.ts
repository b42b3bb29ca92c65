import { isSeq, type Node, type YAMLSeq } from 'yaml';
import { InputError } from '../errors.js';
import { asMap, asSeq, entryAccount, FrontMatter, pairOf, type Splice } from './front-matter.js';
import { postFileParts } from './post-file-parts.js';
import { scalarText, type ScalarValue } from './scalar-text.js';

/** A platform option's value as an edit writes it: a scalar, or a list of texts (`vidATags`). */
export type OptionValue = ScalarValue | readonly string[];

/** One option of one account's `targets:` entry; a bare account becomes an entry with `options:`. */
export function optionSplice(front: FrontMatter, edit: { account: string; name: string; value: OptionValue }): Splice {
  const entry = targetEntry(front, edit.account, 'set its options');
  const map = asMap(entry);
  if (map === null) return front.replace(entry, `{ account: ${scalarText(edit.account)}, options: { ${scalarText(edit.name)}: ${optionText(edit.value)} } }`);
  if (!Array.isArray(edit.value)) return front.set(['options', edit.name], edit.value as ScalarValue, map);
  const list = edit.value as readonly string[];
  // A list written as a block list stays one: its items' lines are written again, at its dashes.
  const written = asMap(pairOf(map, 'options')?.value);
  const current = written === null ? undefined : pairOf(written, edit.name)?.value;
  const block = isSeq(current) && current.flow !== true && current.items.length > 0 && list.length > 0 ? (current as YAMLSeq<Node>) : null;
  if (block === null) return front.set(['options', edit.name], { yaml: optionText(list) }, map);
  const first = front.at(block.items[0]!.range![0]);
  const prefix = front.parts.text.slice(front.lineStart(first), first);
  const start = front.lineStart(first);
  return { start, end: front.endOfLine(front.at(block.items.at(-1)!.range![1])), text: list.map((item) => `${prefix}${scalarText(item)}${front.parts.eol}`).join('') };
}

/** An account's own text (`content:`); an empty text removes it, so the account gets the body. */
export function targetTextSplice(front: FrontMatter, edit: { account: string; text: string }): Splice[] {
  const entry = targetEntry(front, edit.account, 'give it a text of its own');
  const map = asMap(entry);
  if (map === null) return edit.text === '' ? [] : [front.replace(entry, `{ account: ${scalarText(edit.account)}, content: ${scalarText(edit.text)} }`)];
  if (edit.text !== '') return [front.set(['content'], edit.text, map)];
  const removed = front.removeIn(map, 'content');
  return removed === null ? [] : [removed];
}

function targetEntry(front: FrontMatter, account: string, what: string): Node {
  const entry = asSeq(front.top('targets'))?.items.find((item) => entryAccount(item) === account);
  if (entry === undefined) throw new InputError(`this post has no account \`${account}\` under \`targets:\``, { hint: `Add the account first, then ${what}.` });
  return entry;
}

function optionText(value: OptionValue): string {
  return Array.isArray(value) ? `[${(value as readonly string[]).map((item) => scalarText(item)).join(', ')}]` : scalarText(value as ScalarValue);
}

/** The accounts' own texts (`content:`) of a post file's text, by the name each account is written as (none when they cannot be read). */
export function targetTexts(text: string): Record<string, string> {
  const parts = postFileParts(text);
  if (parts.frontMatter === null) return {};
  let entries: readonly Node[];
  try {
    entries = asSeq(new FrontMatter(parts).top('targets'))?.items ?? [];
  } catch {
    return {};
  }
  const texts: Record<string, string> = {};
  for (const entry of entries) {
    const account = entryAccount(entry);
    const content = asMap(entry)?.get('content');
    if (account !== null && typeof content === 'string') texts[account] = content;
  }
  return texts;
}
