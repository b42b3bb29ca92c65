/**
 * House rules, as read from `rules:` in postsync.yaml (see rules-section.ts) and checked by
 * src/house-rules. A rule is one check with a name (its key in postsync.yaml), a severity and a
 * scope. Times are wall-clock times in the project's `timezone`; account ids are lower-case uuids.
 */
export type HouseRule = QuietHoursRule | MinGapRule | MaxPostsRule | BlackoutRule | WordsRule | ImageAltRule | UtmRule;

/** The rules about when posts go out; the others look at one post's text and media. */
export type ScheduleRule = QuietHoursRule | MinGapRule | MaxPostsRule | BlackoutRule;

export type RuleKind = HouseRule['kind'];

/** Every check a rule can hold, in the order the docs list them. */
export const RULE_KINDS = ['quietHours', 'minGap', 'maxPerDay', 'maxPerWeek', 'blackout', 'bannedWords', 'requiredWords', 'imageAlt', 'utm'] as const satisfies readonly RuleKind[];

export const SCHEDULE_RULE_KINDS: ReadonlySet<RuleKind> = new Set(['quietHours', 'minGap', 'maxPerDay', 'maxPerWeek', 'blackout']);

export interface RuleCommon {
  /** The rule's key under `rules:`; unique. */
  readonly name: string;
  readonly severity: 'error' | 'warning';
  readonly scope: RuleScope;
}

/**
 * Which targets a rule looks at; every restriction that is set must hold. A post on several
 * accounts is checked once per account in scope.
 */
export interface RuleScope {
  /** Account ids; null: every account. */
  readonly accounts: readonly string[] | null;
  /** Platforms (`photoC`, …); null: every platform. */
  readonly platforms: readonly string[] | null;
  /** Options the target must have with exactly these values (`shortBBrandContent: true`); text and media rules only. */
  readonly when: Readonly<Record<string, string | number | boolean>> | null;
}

/** No post from `from` to `to` (minutes of the day; `from > to` spans midnight). from ≠ to. */
export interface QuietHoursRule extends RuleCommon {
  readonly kind: 'quietHours';
  readonly from: number;
  readonly to: number;
}

/** Two posts on one account at least `minutes` apart (> 0). */
export interface MinGapRule extends RuleCommon {
  readonly kind: 'minGap';
  readonly minutes: number;
}

/** At most `limit` (≥ 1) posts per account per calendar day, or per ISO week (Monday to Sunday). */
export interface MaxPostsRule extends RuleCommon {
  readonly kind: 'maxPerDay' | 'maxPerWeek';
  readonly limit: number;
}

export interface BlackoutRule extends RuleCommon {
  readonly kind: 'blackout';
  readonly periods: readonly BlackoutPeriod[];
}

/** A wall-clock span, in `wallMinutes` (src/zoned-time): `from` included, `to` excluded, from < to. */
export interface BlackoutPeriod {
  readonly from: number;
  readonly to: number;
  /** As written: `2026-12-25`, or `2027-01-10 – 2027-01-20`. */
  readonly label: string;
  readonly reason?: string;
}

/** Words and phrases (as written, non-empty, distinct) that must not, or must, be in the text. */
export interface WordsRule extends RuleCommon {
  readonly kind: 'bannedWords' | 'requiredWords';
  readonly words: readonly string[];
}

/** Every image needs `alt`. */
export interface ImageAltRule extends RuleCommon {
  readonly kind: 'imageAlt';
}

/** Links must carry these UTM parameters; with `append`, missing ones are added to the text. */
export interface UtmRule extends RuleCommon {
  readonly kind: 'utm';
  /** `utm_source` → value template (`{platform}`, `{file.dir}`, …; `*` accepts any value); at least one. */
  readonly params: Readonly<Record<string, string>>;
  readonly append: boolean;
  /** Lower-case host names whose links the rule looks at (and their subdomains); null: every link. */
  readonly domains: readonly string[] | null;
}

/** Short names in UTM values, for the template names they stand for: `{platform}` is `{account.platform}`. */
export const UTM_SHORTHANDS: Readonly<Record<string, string>> = { platform: 'account.platform', account: 'account.alias', handle: 'account.handle' };

/** The UTM parameters a `utm:` rule may name (without the `utm_` prefix). */
export const UTM_PARAMETERS = ['source', 'medium', 'campaign', 'term', 'content', 'id'] as const;
