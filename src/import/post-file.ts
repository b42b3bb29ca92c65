import { posix } from 'node:path';
import { stringify } from 'yaml';
import type { Post, Target } from '../api/types.js';
import { inputOptions } from '../plan/live-shape.js';
import { slugOfText } from './slug.js';
import { formatInZone, monthInZone } from './zoned-time.js';

/** Characters of the post id that make an imported key and file name unique. */
const ID_PREFIX_LENGTH = 8;

/** Folder under the content folder that imported files go to. */
export const IMPORT_FOLDER = 'imported';

/**
 * The key an imported post gets: a slug of its first words and the start of its id. The id comes
 * from the remote, so only its letters and digits are taken (all of a uuid's first eight): a `/`,
 * `.` or control character there would make the key a path (or a hidden file) when it names the file.
 */
export function importKey(post: Pick<Post, 'id' | 'content'>): string {
  const idPart = post.id.toLowerCase().replace(/[^a-z0-9]+/g, '').slice(0, ID_PREFIX_LENGTH);
  return `${slugOfText(post.content)}-${idPart === '' ? 'post' : idPart}`;
}

/**
 * Where an imported post goes, relative to the content folder (forward slashes):
 * `imported/<yyyy-mm>/<key>.md` by the month of its schedule (or publication) in the project's
 * time zone, `imported/drafts/<key>.md` when it has neither.
 */
export function importPath(post: Pick<Post, 'scheduledAt' | 'publishedAt'>, key: string, options: { timezone: string }): string {
  const when = post.scheduledAt ?? post.publishedAt ?? null;
  const folder = (when === null ? undefined : monthInZone(when, options.timezone)) ?? 'drafts';
  return posix.join(IMPORT_FOLDER, folder, `${key}.md`);
}

export interface PostFileInput {
  key: string;
  post: Pick<Post, 'content' | 'scheduledAt' | 'targets'>;
  timezone: string;
  /** The alias postsync.yaml gives an account id, if any. */
  aliasFor: (accountId: string) => string | undefined;
  /** The path to write for each of the post's media, in post order. */
  mediaPaths: readonly string[];
}

function targetEntry(target: Target, aliasFor: PostFileInput['aliasFor']): unknown {
  const account = aliasFor(target.socialAccountId) ?? target.socialAccountId;
  const options = literalValues(inputOptions(target.options));
  const hasOverride = target.contentOverride !== undefined && target.contentOverride !== null;
  if (!hasOverride && Object.keys(options).length === 0) return account;
  return {
    account,
    ...(hasOverride ? { content: literal(target.contentOverride!) } : {}),
    ...(Object.keys(options).length > 0 ? { options } : {}),
  };
}

/**
 * The Markdown file of a remote post: front-matter (`id`, `scheduledAt` with the offset of the
 * project's time zone, `targets` with aliases where postsync.yaml has them, only the input
 * options, `media`), then the text as the body. Empty lists are left out.
 */
export function renderPostFile(input: PostFileInput): string {
  const { post } = input;
  const frontMatter: Record<string, unknown> = { id: input.key };
  if (post.scheduledAt !== null) frontMatter.scheduledAt = formatInZone(post.scheduledAt, input.timezone);
  if (post.targets.length > 0) frontMatter.targets = post.targets.map((target) => targetEntry(target, input.aliasFor));
  if (input.mediaPaths.length > 0) frontMatter.media = [...input.mediaPaths];
  const yaml = stringify(frontMatter, { lineWidth: 0, blockQuote: 'literal' });
  return `---\n${yaml}---\n${literal(post.content)}\n`;
}

/** A text as a post file writes it: `{{` would start a variable (src/templates), so it is written `\{{`. */
function literal(text: string): string {
  return text.replaceAll('{{', '\\{{');
}

function literalValues<T>(value: T): T {
  if (typeof value === 'string') return literal(value) as T;
  if (Array.isArray(value)) return value.map(literalValues) as T;
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([name, inner]) => [name, literalValues(inner)])) as T;
  return value;
}
