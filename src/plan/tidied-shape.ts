import type { PostShape, TargetShape } from '../content/types.js';
import { shapeHash } from '../content/shape-hash.js';

/**
 * A text as any service that tidies what it keeps would keep it: one kind of line end, no blanks
 * at the end of a line or of the text, Unicode NFC. Two texts with the same tidied form say the
 * same to a reader.
 */
export function tidiedText(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(/[ \t\u00a0]+$/gm, '').trimEnd().normalize('NFC');
}

/** A tag as a service may keep it: no leading `#`, lower case. */
function tidiedTag(tag: unknown): unknown {
  return typeof tag === 'string' ? tidiedText(tag).replace(/^#/, '').toLowerCase() : tag;
}

/** Option values in a tidied form: texts tidied, a title's blanks single, tags by `tidiedTag`. */
function tidiedOptions(options: Record<string, unknown>): Record<string, unknown> {
  const tidied: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(options)) {
    if (name.endsWith('Tags') && Array.isArray(value)) tidied[name] = value.map(tidiedTag);
    else if (name.endsWith('Title') && typeof value === 'string') tidied[name] = tidiedText(value).replace(/\s+/g, ' ').trim();
    else tidied[name] = typeof value === 'string' ? tidiedText(value) : value;
  }
  return tidied;
}

function tidiedTarget(target: TargetShape): TargetShape {
  const tidied: TargetShape = { socialAccountId: target.socialAccountId, options: tidiedOptions(target.options as Record<string, unknown>) as TargetShape['options'] };
  if (target.contentOverride !== undefined) tidied.contentOverride = tidiedText(target.contentOverride);
  return tidied;
}

/** An instant to the minute (a service may keep no seconds); a value that is not an instant is kept. */
function toTheMinute(instant: string | null): string | null {
  if (instant === null) return null;
  const time = Date.parse(instant);
  return Number.isNaN(time) ? instant : new Date(time - (((time % 60_000) + 60_000) % 60_000)).toISOString();
}

/**
 * The form of a shape that survives what the spec lets a service do to what it keeps ("not
 * shown"): texts by `tidiedText`, titles single-spaced, tags lower-cased without `#`, the schedule
 * to the minute (instants compare across offsets already), media by content in any order. A media
 * whose content is unknown (`id:`) stays as it is: it never equals a file's media, so such a post
 * is never taken for a file on this form alone.
 */
export function tidiedShape(shape: PostShape): PostShape {
  return {
    content: tidiedText(shape.content),
    scheduledAt: toTheMinute(shape.scheduledAt),
    targets: shape.targets.map(tidiedTarget),
    media: [...shape.media].sort(),
  };
}

/** `shapeHash(tidiedShape(shape))`. */
export function tidiedHash(shape: PostShape): string {
  return shapeHash(tidiedShape(shape));
}
