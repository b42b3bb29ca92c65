/**
 * House rules: the team's own policies over its schedule (`rules:` in postsync.yaml), checked in
 * every plan.
 *
 * What the plan pipeline relies on: `checkHouseRules(input)` is pure. It wants:
 * - `posts`: every desired post, after repeats are expanded, slots assigned and templates
 *   rendered: key, file, fileInContent, scheduledAt (an instant, null for a draft), where
 *   scheduledAt is written, each target's account id, label, final text (with a TextLocator for
 *   positions) and options, and the media with kind and alt. `standing: 'settled'` for a post
 *   whose time and accounts are as last applied (state), `slotted` for one that just got a
 *   slot: in a clash the later in the order settled → changed → slotted is reported, so a new
 *   post never blocks one already applied;
 * - `others`: scheduled posts that take room on an account without a file here (owned posts
 *   whose files are gone and not pruned; any live post you want counted);
 * - `rules`, `timezone`, `vars`, `hashtags` from the Config, and `accounts` (id → platform and
 *   handle, from the capabilities) for rules limited to platforms and for `{platform}`/`{handle}`.
 * It returns the violations (Diagnostics with `rule`, `key`, `accountId`, `clashesWith`), sorted;
 * an error blocks its post as an invalid file does. With a `utm` rule that appends, `rewrites`
 * holds the final texts, which go into the post's shape (a per-account text becomes that target's
 * contentOverride) before planning, so the plan shows and sends them, and the next plan finds the
 * parameters present and changes nothing.
 * The text rules read the texts as given (before UTM parameters are appended).
 */
export { needsAccountFacts } from './account-facts.js';
export { checkHouseRules } from './check-house-rules.js';
export { fillScheduleBook, scheduleRulesOf } from './check-schedule.js';
export { ScheduleBook, type BookEntry, type ScheduleConflict } from './schedule-book.js';
export { wordPattern } from './word-rules.js';
export { findLinks, withParameters } from './utm-rule.js';
export type { AccountFacts, Clash, HouseRulesInput, HouseRulesResult, OtherPost, PostStanding, RuleMedia, RulePost, RuleTarget, RuleViolation, TextRewrite } from './rule-input.js';
