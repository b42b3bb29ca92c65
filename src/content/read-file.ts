import { hash } from 'node:crypto';
import type { Stats } from 'node:fs';
import { resolve } from 'node:path';
import type { Config } from '../config/types.js';
import { hasErrors, type Diagnostic } from '../diagnostics.js';
import { relativePosix } from '../text/paths.js';
import { shapeHash } from './shape-hash.js';
import { FileLookups } from './file-lookups.js';
import type { PostFileReading } from './interpret-file.js';
import type { MediaMemo } from './media-memo.js';
import type { ParsePool } from './parse-pool.js';
import { resolveMedia, type ResolvedMedia } from './media-paths.js';
import { readPostBytes } from './post-bytes.js';
import { fingerprintOf, type ReadingMemo } from './reading-memo.js';
import { postKeyFromPath } from './post-key.js';
import { checkSchedule, type AcceptPastSchedule } from './schedule-check.js';
import { postsOfFile, type FilePost } from './file-posts.js';
import { postOrigins } from './origins.js';
import { digestOf, digestWithSnippets, snippetFile, snippetsDirOf, type SnippetUse } from './snippet-files.js';
import type { AccountFacts } from '../house-rules/index.js';
import { compareText, sortDiagnostics } from '../text/ordering.js';
import type { DesiredPost, PostToCheck, SourcePosition } from './types.js';

/** The config content reading depends on; the calendar policies default to none. */
export type ContentConfig = Pick<Config, 'root' | 'contentDir' | 'timezone' | 'accounts'> & Partial<Pick<Config, 'rules' | 'slots' | 'vars' | 'hashtags' | 'snippetsDir'>>;

export interface ReadContentOptions {
  config: ContentConfig;
  /** The current time, for the "in the past" check; content reading never reads the clock. */
  now: Date;
  /** What media files hold: keep one across files and runs so each media file is hashed and probed once. */
  media: MediaMemo;
  acceptPastSchedule?: AcceptPastSchedule;
  /** Real paths and media stats shared by the files of one read; one is made per file when absent. */
  lookups?: FileLookups;
  /**
   * The memo of readings (src/cache keeps it between runs): `readContent` then takes the reading
   * of a file known unchanged from it instead of reading the file, and every file read in full
   * is kept in it. The results are the same either way.
   */
  memo?: ReadingMemo;
  /**
   * Platform and handle of the project's accounts, by id (`{{ account.handle }}`, rules limited
   * to platforms, `{platform}` in UTM values): read already (earlier readings must then have been
   * made with the same facts: src/cache keeps them in its context), or read the first time a post
   * needs them (such a post is then not kept in `memo`). Absent: no account has any.
   */
  accountFacts?: ReadonlyMap<string, AccountFacts> | (() => Promise<ReadonlyMap<string, AccountFacts>>);
  /** Worker threads that parse the files read in full (`readContent` starts them for many files); absent: this thread parses. */
  parsePool?: ParsePool;
}

/** One post file read on its own; `watch` can keep these per file and recombine them. */
export interface ContentFileResult {
  /** Project-relative path, forward slashes. */
  file: string;
  /** The post's key, also when the file has other errors; null when it cannot be known. */
  key: string | null;
  /** Position of `id:` when the key comes from it. */
  keyPosition?: SourcePosition;
  /** Set when `key` is null: the key the file's path gives (`postKeyFromPath`), which its post is blocked under. */
  pathKey?: string;
  /** The file's posts: one, or one per occurrence of its repeat; none when the file has any error. */
  posts: DesiredPost[];
  /** Set instead of `posts` when the file has errors: its posts as far as they can be made, checked against their accounts but never planned. */
  checkOnly?: PostToCheck[];
  /** Project-relative snippet files its texts include (found or not): it reads differently when one of them changes. */
  snippets?: string[];
  diagnostics: Diagnostic[];
}

/** Reads, parses, validates and normalizes one post file. `file` is absolute or project-relative. */
export async function readContentFile(file: string, options: ReadContentOptions): Promise<ContentFileResult> {
  const { config } = options;
  const absolute = resolve(config.root, file);
  const relativeFile = relativePosix(config.root, absolute);
  const lookups = options.lookups ?? new FileLookups();
  const readAt = Date.now();
  const read = readPostBytes(absolute, config.root, lookups);
  if ('problem' in read) return { file: relativeFile, key: null, pathKey: pathKeyOf(relativeFile, config), posts: [], diagnostics: [{ severity: 'error', file: relativeFile, ...read.problem }] };
  return readPostFromBytes(relativeFile, read.bytes, { ...options, lookups }, { stats: read.stats, readAt });
}

/**
 * A post file's bytes (read from `file`, or about to be written there) → its result, exactly as
 * `readContentFile` makes it. `file` is project-relative; `read` says how the bytes were read from
 * disk (a post read in full is kept in `memo` only then).
 */
export async function readPostFromBytes(file: string, bytes: Uint8Array, options: ReadContentOptions, read?: { stats: Stats; readAt: number }): Promise<ContentFileResult> {
  const { config } = options;
  const fileInContent = relativePosix(config.contentDir, resolve(config.root, file));
  const interpretContext = { file, fileInContent, timezone: config.timezone, accounts: config.accounts };
  // Loaded here: the YAML parser and the schema validator are needed only when a file is read in full.
  const { reading, locate } = options.parsePool === undefined ? (await import('./interpret-file.js')).interpretPostFile(bytes, interpretContext) : await options.parsePool.interpret(bytes, interpretContext);
  if (reading.text === undefined) return { file, key: null, pathKey: postKeyFromPath(fileInContent), posts: [], diagnostics: reading.diagnostics };
  const media = await resolveMedia(reading.text.media, { ...mediaContextOf(options), file, locate });
  const lookups = options.lookups ?? new FileLookups();
  const snippets = new Map<string, SnippetUse>();
  const readSnippet = (path: string) => {
    const found = snippetFile(path, config, lookups);
    snippets.set(path, { path, digest: digestOf(found) ?? null });
    return found !== undefined && 'text' in found ? found.text : found;
  };
  const snippetsFolder = relativePosix(config.root, snippetsDirOf(config));
  const { accountFacts = NO_FACTS } = options;
  const context = { file, fileInContent, timezone: config.timezone, vars: config.vars ?? {}, hashtags: config.hashtags ?? {}, accounts: typeof accountFacts === 'function' ? null : accountFacts, snippetsFolder, readSnippet, locate };
  const input = { key: reading.key!, text: reading.text, media: media.media, mediaPositions: media.positions, rules: config.rules ?? [], context };
  let found = postsOfFile(input);
  const usedLoadedFacts = found.needsFacts && typeof accountFacts === 'function';
  if (usedLoadedFacts) found = postsOfFile({ ...input, context: { ...context, accounts: await accountFacts() } });
  const uses = [...snippets.values()].sort((a, b) => compareText(a.path, b.path));
  const fileDigest = hash('sha1', bytes, 'base64');
  const digest = digestWithSnippets(fileDigest, uses);
  const result = assemble(file, reading, { ...found, media, snippets: uses }, { ...options, digest, fileDigest });
  // A file with one post of its own time is kept; a repeat's or a slot's posts (their clock and
  // calendar decide them), and a post that needed facts read for this run only, are read in full every time.
  const [only, ...more] = result.posts;
  if (read !== undefined && only !== undefined && more.length === 0 && only.occurrence === undefined && only.slot === undefined && !usedLoadedFacts) {
    const diagnostics = found.diagnostics.length === 0 ? reading.diagnostics : sortDiagnostics([...reading.diagnostics, ...found.diagnostics]);
    options.memo?.keep(file, read, {
      post: only,
      ...(reading.keyPosition === undefined ? {} : { keyPosition: reading.keyPosition }),
      diagnostics,
      ...(reading.text.schedule === undefined ? {} : { schedule: reading.text.schedule }),
      media: reading.text.media,
      ...(uses.length === 0 ? {} : { snippets: uses }),
    });
  }
  return result;
}

const NO_FACTS: ReadonlyMap<string, AccountFacts> = new Map();

/** The key a project-relative post file gets from its path. */
function pathKeyOf(file: string, config: ContentConfig): string {
  return postKeyFromPath(relativePosix(config.contentDir, resolve(config.root, file)));
}

export function mediaContextOf(options: ReadContentOptions) {
  return { root: options.config.root, media: options.media, lookups: options.lookups ?? new FileLookups() };
}

/** A reading, its posts, its media and the clock check → the file's result. */
function assemble(file: string, reading: PostFileReading, found: { posts: FilePost[]; diagnostics: Diagnostic[]; media: ResolvedMedia; snippets: SnippetUse[] }, options: ReadContentOptions & { digest: string; fileDigest: string }): ContentFileResult {
  const key = reading.key!;
  const text = reading.text!;
  const { media } = found;
  const late = found.posts.flatMap((post) => (post.schedule === undefined ? [] : [checkSchedule(post.schedule, { key: post.key, file, now: options.now, timezone: options.config.timezone, acceptPastSchedule: options.acceptPastSchedule })].filter((d) => d !== undefined)));
  const all = [...reading.diagnostics, ...media.diagnostics, ...found.diagnostics, ...late];
  const diagnostics = all.length > 1 ? sortDiagnostics(all) : all;
  const keyPosition = reading.keyPosition === undefined ? {} : { keyPosition: reading.keyPosition };
  const snippets = found.snippets.length === 0 ? {} : { snippets: found.snippets.map((use) => use.path) };
  const fingerprint = fingerprintOf(options.digest, media.media.map((m) => m.sha256));
  const { config } = options;
  const facts = { file: options.fileDigest, snippets: found.snippets, vars: config.vars ?? {}, hashtags: config.hashtags ?? {}, rules: config.rules ?? [], frontMatter: text.frontMatter };
  const posts = found.posts.map((post): DesiredPost => {
    const scheduleAt = post.schedule?.position ?? post.slot?.at;
    return {
      key: post.key,
      file,
      shape: post.shape,
      shapeHash: shapeHash(post.shape),
      // Occurrences share a file: each is a post of its own.
      fingerprint: post.occurrence === undefined ? fingerprint : `${fingerprint}@${post.occurrence.date}`,
      media: media.media,
      targetLabels: text.targetLabels,
      locations: { targets: text.targetPositions, media: media.positions, body: text.body, ...(scheduleAt === undefined ? {} : { schedule: scheduleAt }), targetKeys: text.targetKeys },
      ...(post.occurrence === undefined ? {} : { occurrence: post.occurrence }),
      ...(post.slot === undefined ? {} : { slot: post.slot }),
      ...(post.pencilledAt === undefined ? {} : { pencilledAt: post.pencilledAt }),
      origins: postOrigins(post.fieldSources, facts),
    };
  });
  if (!hasErrors(diagnostics)) return { file, key, ...keyPosition, posts, ...snippets, diagnostics };
  return { file, key, ...keyPosition, posts: [], checkOnly: posts.map((post) => ({ ...post, ofInvalidFile: true })), ...snippets, diagnostics };
}
