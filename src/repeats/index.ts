/**
 * Repeats: a post with `repeat:` stands for a series of ordinary posts, one per occurrence, with
 * stable keys `<key>@<YYYY-MM-DD>` (`occurrenceKey`, read back by `occurrenceOfKey`); `variants:`
 * give texts used in turn, and `occurrences:` change or move single occurrences.
 *
 * What content reading relies on: `expandRepeat(input)` is pure, for a file where
 * `hasRepeat(frontMatter)`, after the front-matter is schema-checked and normalized: it wants the
 * key, the file, the front-matter and its `locate`, the instant `scheduledAt` names (also when
 * `draft: true`), the draft flag, the trimmed body and `config.timezone`. It returns the
 * occurrences in date order and the problems. Each occurrence becomes a DesiredPost of its own: key
 * `occurrence.key`, the file's targets and media, `occurrence.scheduledAt` (null when
 * `occurrence.draft`), `occurrence.text` as the body (its positions: the body's when `textPath`
 * is null, else `locate(textPath)`). The plan groups them under their file by the file path.
 * Shrinking a repeat removes the last occurrences from the desired posts; the planner's usual
 * rules then apply (deleted only with --prune, published ones never touched). An occurrence in
 * the past that was never applied meets the usual "in the past" check.
 */
export { expandRepeat, hasRepeat, type Occurrence, type RepeatInput } from './expand-repeat.js';
export { MAX_OCCURRENCES, readRepeatSpec, type OccurrenceOverride, type RepeatSpec } from './repeat-spec.js';
export { seriesDates } from './series-dates.js';
export { occurrenceKey, occurrenceOfKey, type OccurrenceOf } from './occurrence-key.js';
