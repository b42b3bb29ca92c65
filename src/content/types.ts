import type { OptionsInput } from '../api/types.js';
import type { Diagnostic } from '../diagnostics.js';
import type { SourcePosition } from '../text/yaml-source.js';

export type { SourcePosition };

/**
 * The comparable shape of a post, the same for the desired side (from files) and the live side
 * (from the API), so that the planner can diff them field by field.
 * Invariants: `scheduledAt` is null or an instant in `Date#toISOString()` form (UTC, milliseconds);
 * `targets` are sorted by socialAccountId; option objects hold only input fields with defined
 * values; `media` lists sha256 hex digests in post order (a live media id unknown to state is
 * written `id:<uuid>` so it always differs).
 */
export interface PostShape {
  content: string;
  scheduledAt: string | null;
  targets: TargetShape[];
  media: string[];
}

export interface TargetShape {
  socialAccountId: string;
  contentOverride?: string;
  options: OptionsInput;
}

/** A media file referenced by a post, after resolution and hashing. */
export interface DesiredMedia {
  /** Path as written in front-matter. */
  ref: string;
  /** Project-relative path, forward slashes, always inside the project. */
  path: string;
  absolutePath: string;
  sha256: string;
  sizeBytes: number;
  /** From magic bytes, filled by the media prober; empty until probed. */
  contentType: string;
  kind: 'image' | 'video';
  alt?: string;
}

/**
 * One post as the files describe it, validated and normalized. `key` is unique in a project:
 * the front-matter `id`, or the path under the content folder without `.md`.
 */
export interface DesiredPost {
  key: string;
  /** Project-relative path of the Markdown file, forward slashes. */
  file: string;
  shape: PostShape;
  /** `shapeHash(shape)`, worked out once per post by content reading. */
  shapeHash: string;
  /** What the post was made from: its file's bytes and its media files (`fingerprintOf`). Equal fingerprints, equal posts. */
  fingerprint: string;
  /** Media details, parallel to `shape.media`. */
  media: DesiredMedia[];
  /** Account alias or uuid as written, per target, parallel to `shape.targets` (for messages). */
  targetLabels: string[];
  /** Where the parts of the post are written in its file, for messages and annotations. */
  locations?: DesiredPostLocations;
  /** Set on an occurrence of a repeated post: the key of its file's post and the occurrence's date (YYYY-MM-DD). */
  occurrence?: { of: string; date: string };
  /** Set for `scheduledAt: next-slot`: `shape.scheduledAt` is null until src/plan gives the post a slot. */
  slot?: PostSlot;
  /**
   * A draft's `scheduledAt` (`draft: true` with a time): an instant nothing sends or plans, where
   * the calendar shows the draft and where it keeps its time when dragged.
   */
  pencilledAt?: string;
  /** What each field was made from (the post file, snippets, vars, hashtag sets, the repeat's rule, house rules) and their digests; never part of `shape`. Absent on posts made by other means than content reading. */
  origins?: PostOrigins;
}

/** A post's `scheduledAt: next-slot`: where it is written, and once planned, the slot it got. */
export interface PostSlot {
  at?: SourcePosition;
  /** The slot as postsync.yaml writes it (`Mon 09:00`), its time on the project's clock (`2027-01-04 09:00 (Europe/Berlin)`); `recorded`: the time it was applied with, kept from the state. */
  taken?: { slot: string; wall: string; source: 'recorded' | 'assigned' };
}

/**
 * A post file that yields no post because it has errors: what the plan shows as `blocked` in
 * place of its post, which is neither created, updated nor deleted until the file is fixed.
 */
export interface InvalidFile {
  /** Project-relative path, forward slashes. */
  file: string;
  /**
   * The post's key as for a valid file (its `id:`, else its path under the content folder); when
   * the file cannot be read or its front-matter parsed, the key its path gives.
   */
  key: string;
  /**
   * False when the file cannot be read or its front-matter parsed: its `id:` is unknown, so it may
   * stand for any post (a file renamed and broken in one commit).
   */
  readable: boolean;
}

/** Positions in the post file; an entry is null when the part has no position (e.g. no front-matter). */
export interface DesiredPostLocations {
  /** Parallel to `shape.targets` (after sorting). */
  targets: (SourcePosition | null)[];
  /** Parallel to `media`. */
  media: (SourcePosition | null)[];
  /** First line of the post text. */
  body: SourcePosition;
  /** Where the post's time is written (`scheduledAt`, or the occurrence's entry), for the schedule house rules. */
  schedule?: SourcePosition;
  /** Parallel to `targets`: where each target's own keys are written, for the diagnostics about them. */
  targetKeys?: TargetKeys[];
}

/** Where the keys of one target entry are written (a key not written: where its entry is). */
export interface TargetKeys {
  /** Its `content:` key, when it has a text of its own. */
  content?: SourcePosition;
  /** Its `options:` key. */
  options?: SourcePosition;
  /** Each option the post sends, at its key under `options:`. */
  option: Readonly<Record<string, SourcePosition>>;
}

/**
 * A post to check against its accounts' rules. A file with errors yields no post to plan, but its
 * posts are still checked (`ofInvalidFile`), so that every problem no post may have shows in one
 * run. Its publishing rules (readiness) wait until the file reads cleanly: with a key misspelt or
 * a media file unreadable, the post as read is not the one meant (no media is no missing media).
 */
export interface PostToCheck extends DesiredPost {
  ofInvalidFile?: true;
}

/** What the media prober says about a file (src/media/probe.ts supplies the real one). */
export interface ProbeResult {
  contentType: string;
  kind: 'image' | 'video' | 'unknown';
  /** Why the kind is `unknown`, in words. */
  problem?: string;
}

/** Probes one media file: src/media/probe.ts's `probeMedia`, whose answer says more than `ProbeResult`. */
export type Prober<P extends ProbeResult = ProbeResult> = (absolutePath: string) => Promise<P>;

/** Everything content reading needs to know about one media file's bytes. */
export interface MediaFacts extends ProbeResult {
  sha256: string;
  sizeBytes: number;
}

/**
 * Where a post's field comes from, besides (or instead of) its own file: a snippet it includes, a
 * var or hashtag set of postsync.yaml, its repeat's rule (the variants in turn, an occurrence's
 * override, the dates), a house rule that rewrote it (UTM parameters appended).
 */
export type Origin =
  | { kind: 'file'; path: string }
  | { kind: 'snippet'; path: string }
  | { kind: 'var'; name: string }
  | { kind: 'hashtags'; name: string }
  | { kind: 'repeat' }
  | { kind: 'house-rule'; name: string; rewrite: 'utm' };

/**
 * What a desired post was made from, kept beside its shape (never in it, so never in `shapeHash`).
 * A source is named by an id: `file` (the post file), `snippet:<path>`, `var:<dotted name>`,
 * `hashtags:<name>`, `repeat`, `rule:<name>`.
 * - `digests`: each source's digest now (the post file's bytes, the snippet's bytes, the var's
 *   value, the repeat's front-matter, the rule as configured), `file` always; the state keeps them
 *   per record (`PostRecord.sources`) so a later plan can tell which of them changed since the apply.
 * - `fields`: per field path as the plan names it (`content`, `scheduledAt`,
 *   `targets[<id>].contentOverride`), or `targets[<id>].options` for every option of an account,
 *   the ids of the sources that made it. A field not listed comes from the post file alone.
 * Bounded: at most MAX_SOURCES ids, the first in id order (`file` always), and a field lists only those.
 */
export interface PostOrigins {
  digests: Record<string, string>;
  fields: Record<string, string[]>;
}
