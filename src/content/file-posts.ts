import { SCHEDULE_RULE_KINDS, type HouseRule } from '../config/house-rule-types.js';
import { distinctDiagnostics, hasErrors, type Diagnostic } from '../diagnostics.js';
import { checkHouseRules, needsAccountFacts, type RulePost, type TextRewrite } from '../house-rules/index.js';
import { expandRepeat, hasRepeat } from '../repeats/index.js';
import { fixedTextLocator, verbatimTextLocator, type TextLocator } from '../templates/index.js';
import { formatCivilDate, formatClock, parseScheduledAt, wallMomentOf } from '../zoned-time/index.js';
import type { PostText } from './interpret-file.js';
import type { ScheduleSource, SlotSource } from './normalize-post.js';
import { FILE_SOURCE, nameSource, REPEAT_SOURCE, ruleSource, snippetSource } from './origins.js';
import { renderPost, type UnrenderedPost, type RenderedPost, type TextContext, type TextUses } from './post-texts.js';
import type { DesiredMedia, PostShape, SourcePosition, TargetShape } from './types.js';

/** One post a file stands for, ready but for the clock check: the file's post, or one occurrence of its repeat. */
export interface FilePost {
  key: string;
  shape: PostShape;
  /** Where and how its time is written, for the "in the past" check. */
  schedule?: ScheduleSource;
  slot?: SlotSource;
  /** A draft's pencilled time (not for the occurrences of a repeat). */
  pencilledAt?: string;
  /** Set on an occurrence of a repeat: the file's key and the occurrence's date. */
  occurrence?: { of: string; date: string };
  /** Per field, the ids of the sources that made it (`PostOrigins.fields`, before its digests and bounds). */
  fieldSources: Record<string, string[]>;
}

export interface FilePostsInput {
  key: string;
  text: PostText;
  media: readonly DesiredMedia[];
  mediaPositions: readonly (SourcePosition | null)[];
  rules: readonly HouseRule[];
  context: TextContext;
}

/**
 * A post file's reading → its posts: the repeat expanded into occurrences (or the one post),
 * each rendered (vars, hashtags, built-ins, snippets), checked against the text and media house
 * rules (the schedule rules need every post: src/plan checks them), and with the UTM parameters a
 * rule appends written into its texts. With an error the posts come back as far as they can be
 * made: the file yields none to plan, but they are checked against their accounts.
 * With `context.accounts` null, a post that needs the accounts' facts (a text naming
 * `account.handle`, a rule limited to platforms) comes back as `needsFacts`: read it with them.
 */
export function postsOfFile(input: FilePostsInput): { posts: FilePost[]; diagnostics: Diagnostic[]; needsFacts: boolean } {
  const { text, context } = input;
  const diagnostics: Diagnostic[] = [];
  const sources = sourcesOf(input, diagnostics);
  const rendered = sources.map((source) => ({ source, post: renderPost(source, context) }));
  for (const { post } of rendered) diagnostics.push(...post.diagnostics);
  const textRules = input.rules.filter((rule) => !SCHEDULE_RULE_KINDS.has(rule.kind));
  if (context.accounts === null) {
    const named = rendered.some(({ post }) => post.names.some((name) => FACT_NAMES.has(name)));
    const ruled = text.targets.length > 0 && needsAccountFacts(textRules);
    if (named || ruled) return { posts: [], diagnostics: [], needsFacts: true };
  }
  const checked = textRules.length === 0 || hasErrors(diagnostics) ? { violations: [], rewrites: [] } : checkHouseRules({ posts: rendered.map(({ source, post }) => rulePost(source, post, input)), rules: textRules, timezone: context.timezone, accounts: context.accounts ?? new Map(), vars: context.vars, hashtags: context.hashtags });
  diagnostics.push(...checked.violations);
  const posts = rendered.map(({ source, post }) => {
    const rewrites = checked.rewrites.filter((rewrite) => rewrite.key === source.key);
    const shape = shapeOf(source, post, rewrites, input.media);
    const schedule = scheduleOf(source, input);
    const pencilled = source.occurrence === undefined && text.pencilledAt !== undefined ? { pencilledAt: text.pencilledAt } : {};
    const fieldSources = fieldSourcesOf(source, post, rewrites, shape, context);
    return { key: source.key, shape, ...(schedule === undefined ? {} : { schedule }), ...(source.slotted && text.slot !== undefined ? { slot: text.slot } : {}), ...pencilled, ...occurrenceOf(source, input.key), fieldSources };
  });
  return { posts, diagnostics: distinctDiagnostics(diagnostics), needsFacts: false };
}

/** Built-ins whose values the API tells (GET /accounts). */
const FACT_NAMES: ReadonlySet<string> = new Set(['account.handle', 'account.platform']);

interface Source extends UnrenderedPost {
  /** For an occurrence: its date, where it is moved or changed (`occurrences:`), and whether its text is the repeat's (a variant, its override) rather than the body. */
  occurrence?: { date: string; at?: SourcePosition; ruleText: boolean };
}

function sourcesOf(input: FilePostsInput, diagnostics: Diagnostic[]): Source[] {
  const { text, context } = input;
  const bodyLocate = verbatimTextLocator(text.content, text.contentStart);
  const base = { targets: text.targets, labels: text.targetLabels, entries: text.targetEntries };
  if (!hasRepeat(text.frontMatter)) {
    return [{ ...base, key: input.key, scheduledAt: text.scheduledAt, slotted: text.slot !== undefined, text: text.content, locate: bodyLocate }];
  }
  const written = text.frontMatter.scheduledAt;
  const first = typeof written === 'string' ? parseScheduledAt(written, context.timezone) : undefined;
  const expanded = expandRepeat({
    key: input.key,
    file: context.file,
    frontMatter: text.frontMatter,
    locate: context.locate,
    scheduledAt: first?.ok === true ? first.instant : null,
    draft: text.frontMatter.draft === true,
    body: text.content,
    timezone: context.timezone,
  });
  diagnostics.push(...expanded.diagnostics);
  return expanded.occurrences.map((occurrence) => {
    const locate: TextLocator = occurrence.textPath === null ? bodyLocate : fixedTextLocator(context.locate(occurrence.textPath));
    const at = occurrence.overrideAt;
    return { ...base, key: occurrence.key, scheduledAt: occurrence.draft ? null : occurrence.scheduledAt, slotted: false, text: occurrence.text, locate, occurrence: { date: occurrence.date, ...(at === undefined ? {} : { at }), ruleText: occurrence.textPath !== null } };
  });
}

function rulePost(source: Source, post: RenderedPost, input: FilePostsInput): RulePost {
  const { text, context } = input;
  return {
    key: source.key,
    file: context.file,
    fileInContent: context.fileInContent,
    scheduledAt: source.scheduledAt,
    targets: post.targets.map((target, index) => ({
      accountId: source.targets[index]!.socialAccountId,
      label: source.labels[index] ?? source.targets[index]!.socialAccountId,
      text: target.text,
      locate: target.locate,
      ...(text.targetPositions[index] == null ? {} : { at: text.targetPositions[index]! }),
      options: target.options as Record<string, unknown>,
    })),
    media: input.media.map((media, index) => ({ path: media.path, kind: media.kind, ...(media.alt === undefined ? {} : { alt: media.alt }), ...(input.mediaPositions[index] == null ? {} : { at: input.mediaPositions[index]! }) })),
  };
}

/**
 * The shape the API gets: each target's final text (rendered, UTM parameters appended) becomes
 * its contentOverride where it differs from the shared text; when every target takes the body and
 * they all end up with the same text, that text is the shared one.
 */
function shapeOf(source: Source, post: RenderedPost, rewrites: readonly TextRewrite[], media: readonly DesiredMedia[]): PostShape {
  const finals = post.targets.map((target, index) => {
    const accountId = source.targets[index]!.socialAccountId;
    const rewritten = (field: TextRewrite['field']) => rewrites.find((rewrite) => rewrite.accountId === accountId && rewrite.field === field)?.after;
    const link = rewritten('options.link');
    return { text: rewritten('text') ?? target.text, own: target.own, options: link === undefined ? target.options : { ...target.options, link } };
  });
  const shared = finals.length > 0 && finals.every((final) => !final.own && final.text === finals[0]!.text);
  const content = shared ? finals[0]!.text : post.content;
  const targets = finals.map((final, index): TargetShape => {
    const target: TargetShape = { socialAccountId: source.targets[index]!.socialAccountId, options: final.options };
    if (final.own || final.text !== content) target.contentOverride = final.text;
    return target;
  });
  return { content, scheduledAt: source.scheduledAt, targets, media: media.map((m) => m.sha256) };
}

/**
 * The sources of each field of a post's shape (`PostOrigins.fields`): a text comes from the post file
 * or, for an occurrence that takes a variant or its override, the repeat's rule; plus the snippets,
 * vars and hashtag sets it used and the rules that rewrote it. An occurrence's time is the repeat's.
 */
function fieldSourcesOf(source: Source, post: RenderedPost, rewrites: readonly TextRewrite[], shape: PostShape, context: TextContext): Record<string, string[]> {
  const body = source.occurrence?.ruleText === true ? REPEAT_SOURCE : FILE_SOURCE;
  const used = (uses: TextUses, first: string) => [first, ...uses.snippets.map(snippetSource), ...uses.names.flatMap((name) => nameSource(name, context.vars, context.hashtags) ?? [])];
  const rewrittenBy = (accountId: string, field: TextRewrite['field']) => rewrites.filter((rewrite) => rewrite.accountId === accountId && rewrite.field === field).map((rewrite) => ruleSource(rewrite.rule));
  // With no account of its own text, `content` is the accounts' final text (rewrites included): `shapeOf`.
  const sharedFinal = shape.targets.length > 0 && shape.targets.every((target) => target.contentOverride === undefined);
  const fields: Record<string, string[]> = { content: [...used(post.contentUses, body), ...(sharedFinal ? shape.targets.flatMap((target) => rewrittenBy(target.socialAccountId, 'text')) : [])] };
  if (source.occurrence !== undefined) fields.scheduledAt = [REPEAT_SOURCE];
  post.targets.forEach((target, index) => {
    const { socialAccountId: id, contentOverride } = shape.targets[index]!;
    if (contentOverride !== undefined) fields[`targets[${id}].contentOverride`] = [...used(target.uses.text, target.own ? FILE_SOURCE : body), ...rewrittenBy(id, 'text')];
    fields[`targets[${id}].options`] = [...used(target.uses.options, FILE_SOURCE), ...rewrittenBy(id, 'options.link')];
  });
  return fields;
}

/** Where and how an occurrence's time is written: its entry under `occurrences:`, or the file's `scheduledAt`. */
function scheduleOf(source: Source, input: FilePostsInput): ScheduleSource | undefined {
  if (source.scheduledAt === null) return undefined;
  if (source.occurrence === undefined) return input.text.schedule;
  const position = source.occurrence.at ?? input.context.locate(['scheduledAt']);
  const wall = wallMomentOf(Date.parse(source.scheduledAt), input.context.timezone);
  return { instant: source.scheduledAt, raw: `${formatCivilDate(wall.date)} ${formatClock(wall.minute)}`, ...(position === undefined ? {} : { position }) };
}

function occurrenceOf(source: Source, of: string): Pick<FilePost, 'occurrence'> {
  return source.occurrence === undefined ? {} : { occurrence: { of, date: source.occurrence.date } };
}
