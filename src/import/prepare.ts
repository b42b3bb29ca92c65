import type { ApiClient } from '../api/index.js';
import type { Media, Post } from '../api/types.js';
import type { Config } from '../config/types.js';
import type { DesiredPost } from '../content/types.js';
import { diffShapes, fieldNames } from '../plan/diff.js';
import { fieldList } from '../plan-words/reason-words.js';
import { liveShape, mediaIdIndex } from '../plan/live-shape.js';
import { checkDesiredPosts } from '../pipeline/check-posts.js';
import { createPlanCaches, type PlanCaches } from '../pipeline/plan-caches.js';
import { readAccountRules } from '../pipeline/account-rules.js';
import { shapeHash } from '../content/shape-hash.js';
import type { PostRecord, ProjectState } from '../state/types.js';
import { chooseName, MAX_NAME_ATTEMPTS } from './choose-name.js';
import { contentKeys } from './content-keys.js';
import type { FetchForeignMedia } from './foreign-media.js';
import { locateMediaFiles, mediaReference } from './media-files.js';
import type { PlacedMedia } from './place-media.js';
import { importKey, renderPostFile } from './post-file.js';
import { readBack } from './read-back.js';
import type { ForeignOwners } from '../plan/foreign-owners.js';
import { selectForImport, type ImportFilter } from './select.js';

/** One remote post to adopt: the file to write and the state record to add. */
export interface ImportItem {
  post: Post;
  key: string;
  /** Project-relative path, forward slashes. */
  file: string;
  text: string;
  /** The file is already there with exactly this text (an earlier import stopped before recording it). */
  fileExists: boolean;
  /** The state record, without `appliedAt` (set when it is written). */
  record: Omit<PostRecord, 'appliedAt'>;
  /** Media downloaded from the service for this post: recorded in the state before the post. */
  downloaded: PlacedMedia[];
}

export interface SkippedPost {
  post: Post;
  reason: string;
}

/** What an import would do; nothing is written while preparing it. */
export interface ImportPlan {
  items: ImportItem[];
  skipped: SkippedPost[];
  /** Unowned posts left out by the status filter. */
  filteredOut: Post[];
  /** Unowned posts that came from an interrupted create of `key`. */
  pending: { post: Post; key: string }[];
  /** Remote posts already in state. */
  managed: number;
  /** Remote posts another calendar of the repository records, with its folder. */
  otherCalendars: { post: Post; folder: string }[];
  /** Dry run: posts whose media the service offers, to be downloaded (and the post checked) by a real import. */
  toDownload: { post: Post; media: Media[] }[];
}

export interface PrepareImportInput {
  config: Config;
  client: ApiClient;
  section: ProjectState;
  /** Every remote post (one listing). */
  posts: readonly Post[];
  filter: ImportFilter;
  now: Date;
  caches?: PlanCaches;
  /** The posts other calendars of the repository record: never imported here. */
  foreignOwners?: ForeignOwners;
  /**
   * Brings media the state does not know into the project (`mediaDownloader`, or on a dry run
   * `describeForeignMedia`). Without it, posts with such media are skipped.
   */
  fetchForeignMedia?: FetchForeignMedia;
}

function aliasLookup(accounts: Config['accounts']): (accountId: string) => string | undefined {
  const byId = new Map<string, string>();
  for (const [alias, id] of Object.entries(accounts)) if (!byId.has(id)) byId.set(id, alias);
  return (accountId) => byId.get(accountId.toLowerCase());
}

const plural = (count: number, one: string, many: string) => (count === 1 ? one : many);

/**
 * Decides, for every remote post not in state, whether it can be imported and how: its file
 * text, name and state record. A post is imported only when its file, read back exactly as
 * `plan` reads files, reproduces the remote post (so the next plan shows no change for it) and
 * passes the account checks (so it never blocks an apply). Everything else is skipped with the
 * reason. Requests: one capabilities read per account the candidates target.
 */
export async function prepareImport(input: PrepareImportInput): Promise<ImportPlan> {
  const { config, section } = input;
  const selection = selectForImport(input.posts, section, input.filter, input.foreignOwners);
  const plan: ImportPlan = { items: [], skipped: [], filteredOut: selection.filteredOut, pending: selection.pending, managed: selection.managed, otherCalendars: selection.otherCalendars, toDownload: [] };
  const knownMediaIds = mediaIdIndex(section);
  const skip = (post: Post, reason: string) => plan.skipped.push({ post, reason });

  // Media not uploaded from this project's files are downloaded from the service where it offers them.
  const foreign = selection.candidates.flatMap((post) => post.media.filter((media) => !knownMediaIds.has(media.id)));
  const fetched = foreign.length > 0 && input.fetchForeignMedia !== undefined ? await input.fetchForeignMedia(foreign) : new Map();
  const shaOfMediaId = new Map(knownMediaIds);
  const placedFiles = new Map<string, string>();
  const placedByPost = new Map<string, PlacedMedia[]>();
  const reproducible = selection.candidates.filter((post) => {
    const unknown = post.media.filter((media) => !knownMediaIds.has(media.id));
    if (unknown.length === 0) return true;
    const outcomes = unknown.map((media) => fetched.get(media.id));
    const reasons = outcomes.map((outcome) => (outcome === undefined ? 'postsync was not asked to download it' : outcome.kind === 'unavailable' ? outcome.reason : undefined)).filter((reason) => reason !== undefined);
    if (reasons.length > 0) {
      skip(post, `${reasons.length} of its ${post.media.length} media ${plural(reasons.length, 'was', 'were')} not uploaded from this project's files and cannot be downloaded into it: ${reasons.join('; ')}`);
      return false;
    }
    if (outcomes.some((outcome) => outcome?.kind === 'downloadable')) {
      plan.toDownload.push({ post, media: unknown });
      return false;
    }
    const placed = outcomes.map((outcome) => (outcome as { placed: PlacedMedia }).placed);
    for (const media of placed) {
      shaOfMediaId.set(media.mediaId, media.sha256);
      placedFiles.set(media.sha256, media.file);
    }
    placedByPost.set(post.id, placed);
    return true;
  });
  const wanted = new Map(reproducible.flatMap((post) => post.media.flatMap((media) => {
    const sha256 = shaOfMediaId.get(media.id)!;
    return placedFiles.has(sha256) ? [] : [[sha256, section.media[sha256]!] as const];
  })));
  const [locatedFiles, keysInFiles] = await Promise.all([locateMediaFiles(config.root, wanted), contentKeys(config)]);
  const mediaFiles = new Map([...locatedFiles, ...placedFiles]);

  const caches = input.caches ?? createPlanCaches();
  const takenKeys = new Set([...Object.keys(section.posts), ...Object.keys(section.pending)]);
  const takenFiles = new Set<string>();
  const aliasFor = aliasLookup(config.accounts);
  const verified: { item: ImportItem; desired: DesiredPost }[] = [];

  for (const post of reproducible) {
    const shas = post.media.map((media) => shaOfMediaId.get(media.id)!);
    const missing = shas.filter((sha) => !mediaFiles.has(sha));
    if (missing.length > 0) {
      skip(post, `its media (sha256 ${missing.map((sha) => sha.slice(0, 12)).join(', ')}) ${plural(missing.length, 'is', 'are')} recorded in the state, but no file in the project has ${plural(missing.length, 'those bytes', 'their bytes')} any more`);
      continue;
    }
    const render = (file: string, key: string) =>
      renderPostFile({ key, post, timezone: config.timezone, aliasFor, mediaPaths: shas.map((sha) => mediaReference(config.root, file, mediaFiles.get(sha)!)) });
    const name = await chooseName(post, { config, takenKeys, takenFiles, keysInFiles, render });
    if (name.kind === 'exhausted') {
      skip(post, `every file name and key tried for ${importKey(post)} (${MAX_NAME_ATTEMPTS}) is taken`);
      continue;
    }
    if (name.kind === 'conflict') {
      skip(post, `${name.file} (key ${name.key}) was written for it by an earlier import that stopped before recording it, and no longer matches the remote post; check that file, remove it, and import again`);
      continue;
    }
    const back = await readBack(name.file, name.text, { config, now: input.now, media: caches.media });
    if (!back.post) {
      skip(post, `its file would not be valid: ${back.diagnostics.filter((d) => d.severity === 'error').map((d) => d.message).join('; ')}`);
      continue;
    }
    const live = liveShape(post, shaOfMediaId);
    const differences = diffShapes(live, back.post.shape);
    if (differences.length > 0) {
      skip(post, `a post file cannot reproduce it exactly (${fieldList(fieldNames(differences))}; post files trim leading and trailing spaces, for example), so the next plan would change it`);
      continue;
    }
    takenKeys.add(name.key);
    takenFiles.add(name.file);
    const record = { postId: post.id, file: name.file, appliedHash: shapeHash(live), observedHash: shapeHash(live), remoteUpdatedAt: post.updatedAt };
    const downloaded = placedByPost.get(post.id) ?? [];
    verified.push({ item: { post, key: name.key, file: name.file, text: name.text, fileExists: name.kind === 'existing', record, downloaded }, desired: back.post });
  }

  const rules = await readAccountRules(input.client, verified.flatMap(({ desired }) => desired.shape.targets.map((target) => target.socialAccountId)));
  const problems = await checkDesiredPosts({ posts: verified.map(({ desired }) => desired), rules, media: caches.media });
  for (const { item } of verified) {
    const errors = problems.filter((d) => d.severity === 'error' && d.file === item.file);
    if (errors.length === 0) plan.items.push(item);
    else skip(item.post, `it does not pass the account checks postsync runs before every apply (${errors.map((d) => d.message).join('; ')}), so its file would stop every apply until fixed`);
  }
  const listingOrder = new Map(input.posts.map((post, index) => [post.id, index]));
  plan.skipped.sort((a, b) => listingOrder.get(a.post.id)! - listingOrder.get(b.post.id)!);
  return plan;
}
