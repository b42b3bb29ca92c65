import type { HouseRule } from '../config/house-rule-types.js';
import type { TemplateVars } from '../config/vars-section.js';
import type { SourcePosition } from '../text/yaml-source.js';
import type { Diagnostic } from '../diagnostics.js';
import type { TextLocator } from '../templates/text-locator.js';

/**
 * How a post stands in a clash with another (minimum gap, posts per day or week): the post that
 * came later in this order keeps its time, the other one is reported. `settled`: its time and
 * accounts are as last applied (state says so), so a new post never pushes it away; `changed`
 * (the default): new or moved in its file; `slotted`: its time was just picked from a slot
 * (src/slots), after every other post.
 */
export type PostStanding = 'settled' | 'changed' | 'slotted';

/** One post of the files, as the house rules see it (after repeats are expanded and templates rendered). */
export interface RulePost {
  key: string;
  /** Project-relative path of its file, forward slashes. */
  file: string;
  /** Path of the file under the content folder (`2027-01/launch.md`), for `{file.dir}` in UTM values. */
  fileInContent: string;
  /** An instant (ISO); null for a draft, which only the text and media rules look at. */
  scheduledAt: string | null;
  /** Where the time is written (the `scheduledAt:` value); schedule problems point here. */
  scheduleAt?: SourcePosition;
  standing?: PostStanding;
  targets: readonly RuleTarget[];
  media: readonly RuleMedia[];
}

export interface RuleTarget {
  /** Lower-case uuid. */
  accountId: string;
  /** The alias or uuid as written in the post, for messages. */
  label: string;
  /** The final text for this account: its contentOverride, or the post's body, rendered. */
  text: string;
  /** Where an offset of `text` is in the file; default: `at`. */
  locate?: TextLocator;
  /** Where the target entry is written. */
  at?: SourcePosition;
  /** Its platform options (`link`, `shortBBrandContent`, …). */
  options: Readonly<Record<string, unknown>>;
}

export interface RuleMedia {
  /** Project-relative path. */
  path: string;
  kind: 'image' | 'video';
  alt?: string;
  at?: SourcePosition;
}

/**
 * A scheduled post with no file here that still takes its place on an account: an owned post
 * whose file was removed, or any other live scheduled post the caller wants counted.
 */
export interface OtherPost {
  /** Its key in the state, when it has one. */
  key?: string;
  postId?: string;
  accountIds: readonly string[];
  scheduledAt: string;
}

/** What the API tells about an account (from its capabilities); unknown accounts are left out. */
export interface AccountFacts {
  platform?: string;
  handle?: string;
}

export interface HouseRulesInput {
  posts: readonly RulePost[];
  others?: readonly OtherPost[];
  rules: readonly HouseRule[];
  /** `config.timezone`: days, weeks, quiet hours and blackouts are read on its clock. */
  timezone: string;
  /** Account id → its platform and handle; a rule limited to platforms skips accounts not here. */
  accounts?: ReadonlyMap<string, AccountFacts>;
  /** `config.vars` and `config.hashtags`, for vars in UTM values. */
  vars?: TemplateVars;
  hashtags?: Readonly<Record<string, string>>;
}

/** A post another one clashes with (minimum gap, too many a day or a week). */
export interface Clash {
  key?: string;
  postId?: string;
  file?: string;
  scheduledAt: string;
}

/**
 * A broken house rule. `code` is `rule-<kind>` (`rule-quiet-hours`, `rule-min-gap`, …), `rule` the
 * rule's name in postsync.yaml, `key` the post it is about; with severity `error` that post is
 * blocked, as an invalid file is.
 */
export interface RuleViolation extends Diagnostic {
  rule: string;
  key: string;
  /** The account concerned, for the per-account rules. */
  accountId?: string;
  clashesWith?: Clash[];
}

/** A text a `utm` rule with `append: true` changed; the plan shows and sends `after`. */
export interface TextRewrite {
  key: string;
  accountId: string;
  /** The name of the rule that rewrote it. */
  rule: string;
  field: 'text' | 'options.link';
  before: string;
  after: string;
}

export interface HouseRulesResult {
  /** Sorted by file, line, column, then rule. */
  violations: RuleViolation[];
  rewrites: TextRewrite[];
}
