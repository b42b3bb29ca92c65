import { diffWordsWithSpace } from 'diff';

/** A run of a text diff: kept as it was, removed from the old text, or added in the new one. */
export interface WordSegment {
  kind: 'same' | 'removed' | 'added';
  text: string;
}

/**
 * A part of a word diff to show: its changed runs with up to `context` words of kept text each
 * side. `cutBefore`/`cutAfter`: kept text was left out there (the reader sees an ellipsis).
 */
export interface WordHunk {
  segments: WordSegment[];
  cutBefore: boolean;
  cutAfter: boolean;
}

/** The most token edits a word diff looks for before it shows the old text removed and the new one added whole. */
export const MAX_EDITS = 60;

/** How many kept words each side of a change a hunk shows, unless told otherwise. */
export const CONTEXT_WORDS = 5;

/**
 * The word diff from `before` to `after` (jsdiff's `diffWordsWithSpace`: words, runs of spaces
 * and line breaks are tokens, punctuation marks words of their own; a changed line break is a
 * change, as it is on the post). The `same` and `removed` texts concatenated are `before`, the
 * `same` and `added` texts `after`; neighbouring runs of one kind are merged.
 * A change of more than MAX_EDITS tokens is the whole old text removed, the whole new one added.
 */
export function wordDiff(before: string, after: string): WordSegment[] {
  const segments: WordSegment[] = [];
  // Past MAX_EDITS the texts are told apart as wholes: the cost of a diff grows with its edits, and a rewrite reads better whole.
  const parts = diffWordsWithSpace(before, after, { maxEditLength: MAX_EDITS }) ?? [
    { value: before, removed: true, added: false },
    { value: after, removed: false, added: true },
  ];
  for (const part of parts) {
    const kind = part.added ? 'added' : part.removed ? 'removed' : 'same';
    const last = segments.at(-1);
    if (last !== undefined && last.kind === kind) last.text += part.value;
    else if (part.value !== '') segments.push({ kind, text: part.value });
  }
  return segments;
}

/** `text` split into words with the spaces after each (the spaces before the first word stay with it). */
function words(text: string): string[] {
  return text.match(/\s*\S+\s*|\s+/g) ?? [];
}

/**
 * The hunks of a word diff: each run of changes with up to `context` kept words each side; kept
 * text longer than twice that between two changes splits them into two hunks. No change, no hunk.
 */
export function wordHunks(segments: readonly WordSegment[], options: { context?: number } = {}): WordHunk[] {
  const context = options.context ?? CONTEXT_WORDS;
  const hunks: WordHunk[] = [];
  // The hunk being made; before its first change it holds only the kept words that lead into it.
  let open: WordHunk | null = null;
  const changed = (hunk: WordHunk) => hunk.segments.some((segment) => segment.kind !== 'same');
  segments.forEach((segment, index) => {
    if (segment.kind !== 'same') {
      open ??= { segments: [], cutBefore: false, cutAfter: false };
      open.segments.push(segment);
      return;
    }
    const all = words(segment.text);
    const last = index === segments.length - 1;
    if (open !== null && changed(open)) {
      if (!last && all.length <= 2 * context) {
        open.segments.push(segment);
        return;
      }
      const lead = all.slice(0, context);
      if (lead.length > 0) open.segments.push({ kind: 'same', text: lead.join('') });
      open.cutAfter = lead.length < all.length;
      hunks.push(open);
    }
    open = null;
    if (last) return;
    const tail = all.slice(Math.max(0, all.length - context));
    open = { segments: tail.length > 0 ? [{ kind: 'same', text: tail.join('') }] : [], cutBefore: tail.length < all.length, cutAfter: false };
  });
  if (open !== null && changed(open)) hunks.push(open);
  return hunks;
}
