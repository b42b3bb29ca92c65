import type { MediaDelta } from '../plan/media-changes.js';
import { mediaDeltasOf } from '../plan/media-changes.js';
import { textChangeOf } from '../plan/text-fields.js';
import type { Change } from '../plan/types.js';
import { inlineCode, md, type Markdown } from '../text/markdown.js';
import { previewText } from '../text/preview.js';
import { wordDiff, wordHunks, type WordHunk } from '../text/word-diff.js';
import { detailsMarkdown, MARKDOWN_RUN_LIMIT, wordHunksMarkdown, wordSegmentsMarkdown } from '../text/word-diff-markdown.js';
import { mediaDeltaWords } from './media-words.js';

/** A media change's words in Markdown: each path in code. */
export function mediaMarkdown(delta: MediaDelta): Markdown {
  return md`${mediaDeltaWords(delta).map((word) => (typeof word === 'string' ? md`${word}` : inlineCode(word.path)))}`;
}

/** The name of a text field in Markdown: `content`, or `content for <account>`. */
export function textLabel(account: string | undefined, aliases: ReadonlyMap<string, string>): Markdown {
  return account === undefined ? md`**content**` : md`**content for ${aliases.get(account) ?? account}**`;
}

/** A text change's line: its changed words in context, or with `full` the whole new text, changes marked. */
export function textDiffLine(label: Markdown, hunks: readonly WordHunk[]): Markdown {
  return md`${label}: ${wordHunksMarkdown(hunks)}`;
}

/** A media change's line: each file added, removed, replaced or reordered, named in code. */
export function mediaLine(deltas: readonly MediaDelta[]): Markdown {
  return md`**media**: ${deltas.map((delta, index) => (index === 0 ? mediaMarkdown(delta) : md`; ${mediaMarkdown(delta)}`))}`;
}

/**
 * What a change changes, in detail, as a collapsed `<details>` block for the job summary: each
 * changed text as a word diff (in context, or whole with `full`), its media by file, and for a
 * create its text; null when there is nothing more to show than the table's row.
 */
export function changeDetailsMarkdown(change: Change, options: { full: boolean; aliases: ReadonlyMap<string, string> }): Markdown | null {
  const lines: Markdown[] = [];
  const parts: string[] = [];
  if (change.action === 'create') {
    const text = options.full ? change.desired.content : previewText(change.desired.content, MARKDOWN_RUN_LIMIT);
    lines.push(md`**text**: ${wordSegmentsMarkdown([{ kind: 'same', text }])}`);
    parts.push('text');
  }
  for (const field of change.fields ?? []) {
    const texts = textChangeOf(field);
    if (texts !== null) {
      const segments = wordDiff(texts.before, texts.after);
      const label = textLabel(texts.account, options.aliases);
      lines.push(options.full ? md`${label} (whole text): ${wordSegmentsMarkdown(segments)}` : textDiffLine(label, wordHunks(segments)));
      parts.push(texts.account === undefined ? 'content' : 'content for an account');
      continue;
    }
    const deltas = mediaDeltasOf(field);
    if (deltas !== null && deltas.length > 0) {
      lines.push(mediaLine(deltas));
      parts.push('media');
    }
  }
  if (lines.length === 0) return null;
  return detailsMarkdown(md`${inlineCode(change.key)} · ${[...new Set(parts)].join(', ')}`, lines);
}
