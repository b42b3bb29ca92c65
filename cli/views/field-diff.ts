import { mediaDeltaWords } from '../../src/actions/media-words.js';
import { mediaDeltasOf } from '../../src/plan/media-changes.js';
import { textChangeOf } from '../../src/plan/text-fields.js';
import type { FieldChange } from '../../src/plan/types.js';
import { joinTerminal, term, terminalPath, type Terminal } from '../../src/text/terminal.js';
import { wordDiff, wordHunks, type WordSegment } from '../../src/text/word-diff.js';
import type { Style } from './style.js';

/**
 * A changed run of a word diff for the terminal: in colour, removed text red and struck through,
 * added text green and underlined; without colour, as git's `--word-diff=plain`: `[-old-]{+new+}`.
 */
function marked(segment: WordSegment, text: string, style: Style): Terminal {
  const shown = term`${text}`;
  if (segment.kind === 'same') return shown;
  if (style.isColorSupported) return segment.kind === 'removed' ? style.red(style.strikethrough(shown)) : style.green(style.underline(shown));
  return segment.kind === 'removed' ? term`[-${shown}-]` : term`{+${shown}+}`;
}

/**
 * A text change as terminal lines under `label`: the changed words with a few words of context
 * each side (a line per hunk, `…` where text is left out, a line break shown as `\n`), or with
 * `full` the whole new text with its changes marked, line by line.
 */
export function wordDiffLines(label: Terminal, texts: { before: string; after: string }, style: Style, options: { full: boolean; indent: string }): Terminal[] {
  const segments = wordDiff(texts.before, texts.after);
  if (options.full) {
    const lines: Terminal[][] = [[]];
    for (const segment of segments) {
      segment.text.split('\n').forEach((part, index) => {
        if (index > 0) lines.push([]);
        if (part !== '') lines[lines.length - 1]!.push(marked(segment, part, style));
      });
    }
    return [term`${options.indent}${label} (whole text):`, ...lines.map((line) => term`${options.indent}  ${joinTerminal(line, '')}`)];
  }
  const hunks = wordHunks(segments).map((hunk) => term`${hunk.cutBefore ? '…' : ''}${joinTerminal(hunk.segments.map((segment) => marked(segment, segment.text, style)), '')}${hunk.cutAfter ? '…' : ''}`);
  const [first = term``, ...rest] = hunks;
  return [term`${options.indent}${label}: ${first}`, ...rest.map((hunk) => term`${options.indent}  ${hunk}`)];
}

/** The name a text field goes by: `content`, or `content for <account>` (its alias when postsync.yaml has one). */
export function textFieldLabel(account: string | undefined, aliases: ReadonlyMap<string, string>): Terminal {
  return account === undefined ? term`content` : term`content for ${aliases.get(account) ?? account}`;
}

/**
 * The lines of a field change that a view shows in its own form: a text as a word diff, media by
 * file; null for any other field (shown as before → after). `via`: where the change came from
 * (` (via snippets/signature.md)`).
 */
export function fieldDiffLines(field: FieldChange, style: Style, options: { full: boolean; indent: string; aliases: ReadonlyMap<string, string>; via?: Terminal }): Terminal[] | null {
  const via = options.via ?? term``;
  const texts = textChangeOf(field);
  if (texts !== null) return wordDiffLines(term`${textFieldLabel(texts.account, options.aliases)}${via}`, texts, style, options);
  const deltas = mediaDeltasOf(field);
  if (deltas === null) return null;
  return deltas.map((delta, index) => term`${options.indent}${index === 0 ? term`media${via}: ` : '       '}${joinTerminal(mediaDeltaWords(delta).map((word) => (typeof word === 'string' ? term`${word}` : terminalPath(word.path))), '')}`);
}
