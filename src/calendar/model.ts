import type { Diagnostic } from '../diagnostics.js';
import type { MediaDelta } from '../plan/media-changes.js';
import type { WordHunk } from '../text/word-diff.js';

/**
 * The calendar as data: everything the page, the feed and the pull-request diff show, worked out
 * once on the server side (times already in the project's time zone), so the page's script only
 * lays it out. It is embedded in the page as JSON, so it holds plain values only.
 */
export interface CalendarModel<P = CalendarPost> {
  formatVersion: 1;
  /** When it was made (ISO instant). */
  generatedAt: string;
  /** IANA zone every `day`/`time` below is in. */
  timezone: string;
  /** One line naming where statuses and the plan came from, e.g. `Target: local API (…)`. */
  target: string;
  /** `remote`: statuses and the plan from the API; `state`: the API was not reached, statuses from the state file and no plan. */
  source: 'remote' | 'state';
  /** Why the API was not reached (source `state`). */
  offlineReason?: string;
  /** `--from`/`--to` as given (instants), or null: posts outside are left out. */
  range: { from: string | null; to: string | null };
  /** `generatedAt`'s day in `timezone` (the page marks it). */
  today: string;
  /** The view the page opens on (`--from`'s day, else today): `YYYY-MM`, and the Monday of a week. */
  initial: { month: string; week: string };
  accounts: CalendarAccount[];
  /** The weekly posting slots of `slots:`: the page shows each one no post of its account takes as an open place. */
  slots: CalendarSlot[];
  /** Scheduled posts by time, then drafts by key. */
  posts: P[];
  /** Counts over every post (a page may hold its posts in two parts, see page.ts). */
  totals: { scheduled: number; unscheduled: number; ready: number };
  /** Problems of files that yield no post (they cannot be placed), and of the project. */
  problems: Diagnostic[];
  /** Plan counts; null without a plan. */
  summary: CalendarSummary | null;
}

export interface CalendarSummary {
  new: number;
  moved: number;
  changed: number;
  renamed: number;
  deleted: number;
  unscheduled: number;
  blocked: number;
  unchanged: number;
}

/** An account a post targets or postsync.yaml names. `color` indexes the page's palette. */
export interface CalendarAccount {
  id: string;
  /** The alias of postsync.yaml, else the handle, else the id. */
  label: string;
  platform: string | null;
  handle: string | null;
  color: number;
  available: boolean;
  reason?: string;
  /** Caption limit in `unit`; null when the account's rules are unknown. */
  maxLength: number | null;
  unit: string;
  /** The unit in words: "characters", "bytes (UTF-8)". */
  unitWord: string;
  /** The media files it takes (types, largest size), checked in the editor before a save; null when its rules are unknown. */
  media: AccountMedia | null;
  /** Its options whose values are lists (`vidATags`), as its rules say. */
  listOptions: string[];
}

/** The media an account takes: content types, and the largest file, of images and of videos; how many files a post may have. */
export interface AccountMedia {
  images: { types: string[]; maxBytes: number };
  videos: { types: string[]; maxBytes: number };
  /** At most this many files, of which at most `maxVideos` videos; images and videos together only when `mixed`. */
  maxFiles: number;
  maxVideos: number;
  mixed: boolean;
}

/** A weekly posting slot of an account, on the project's clock. */
export interface CalendarSlot {
  account: string;
  /** ISO weekday: 1 = Monday … 7 = Sunday. */
  weekday: number;
  /** `HH:mm`. */
  time: string;
}

/** How the plan touches a post. */
export type Overlay = 'new' | 'moved' | 'changed' | 'renamed' | 'deleted' | 'unscheduled' | 'blocked';

/** A point in time as the calendar places it: the instant, its day and time in the project's zone. */
export interface Slot {
  at: string;
  /** `YYYY-MM-DD` in the project's zone. */
  day: string;
  /** `HH:mm` in the project's zone. */
  time: string;
  /** UTC offset there and then, `+01:00`. */
  offset: string;
}

/**
 * One post as shown. `slot` null: unscheduled (a draft, or a post the plan unschedules). A deleted
 * post is placed where the remote has it. `previous` is the slot it leaves (moved, unscheduled).
 */
export interface CalendarPost {
  key: string;
  /** Project-relative Markdown file; null for a post whose file is gone and unknown. */
  file: string | null;
  slot: Slot | null;
  previous: Slot | null;
  /** A draft's time as its file pencils it (`draft: true` with `scheduledAt`): the page shows it on that day too, and a drag keeps the time. */
  pencilled?: Slot;
  /** `draft: true` or no time: sits in the tray. */
  draft: boolean;
  /** A draft with no error, at least one target: ready to be scheduled. */
  ready: boolean;
  /** The remote post's status, or what the state says (`applied`, `not applied`), or null (new). */
  status: string | null;
  overlay: Overlay | null;
  change: CalendarChange | null;
  text: string;
  targets: CalendarTarget[];
  media: CalendarMedia[];
  /** This file's problems (content and account checks). */
  diagnostics: Diagnostic[];
  errors: number;
}

export interface CalendarChange {
  action: string;
  reasons: string[];
  /** Field, before and after, as short texts. */
  fields: { field: string; before: string; after: string }[];
  fromKey?: string;
  /** Each changed text (the post's, or an account's own: `account` its id) as the hunks of its word diff. */
  texts?: { account?: string; hunks: WordHunk[] }[];
  /** How its media list changes, file by file. */
  media?: MediaDelta[];
}

/**
 * One account's preview. Its caption is `shown` + `overflow`: `overflow` is what the account's
 * limit cuts (empty when it fits); `shown` is absent when it is the post's `text` whole (no text
 * of its own, nothing cut), which spares the page a copy per account. `length` is counted in the
 * account's unit.
 */
export interface CalendarTarget {
  account: string;
  /** The account as written in the file. */
  label: string;
  /** The remote target's status (pending, published, failed, …), or null. */
  status: string | null;
  error?: string;
  /** The text is this target's `content:` rather than the post's. */
  override: boolean;
  shown?: string;
  overflow: string;
  length: number;
  /** Each option as the preview shows it (`value`), and a list option's items (`list`) as the file has them. */
  options: { name: string; value: string; list?: string[] }[];
}

/** What the files (or, for a post without one, the remote) say of a post: its text, each account's preview, its media. */
export interface PostContent {
  text: string;
  targets: ContentTarget[];
  media: ContentMedia[];
}

/** An account's preview as the content has it; its remote status comes with the post (CalendarTargetStatus). */
export type ContentTarget = Omit<CalendarTarget, 'status' | 'error'>;

/** A media file as the content has it; its picture comes with the post. */
export type ContentMedia = Omit<CalendarMedia, 'src'>;

/** A target's status on the remote (CalendarTarget's). */
export type CalendarTargetStatus = Pick<CalendarTarget, 'status' | 'error'>;

/** The caption a target shows (see CalendarTarget). */
export function captionOf(target: Pick<CalendarTarget, 'shown' | 'overflow'>, post: Pick<CalendarPost, 'text'>): string {
  return `${target.shown ?? post.text}${target.overflow}`;
}

/** A media file. `src`: a URL relative to the page (images copied next to it) or a remote poster; null: a placeholder. */
export interface CalendarMedia {
  kind: string;
  /** Project-relative path (a remote media's id when the file is unknown: then `remote` is true). */
  path: string;
  /** A media file of the remote post only (a removed file's post): `path` is an id, not a name to show. */
  remote?: true;
  src: string | null;
  /** The content type its bytes are (absent for a remote media file). */
  type?: string;
  alt?: string;
  width?: number;
  height?: number;
  durationSeconds?: number;
  sizeBytes?: number;
}
