import { hasErrors, type Diagnostic } from '../diagnostics.js';
import { curlyQuoted, curlyQuotesProblem } from '../text/curly-quotes.js';
import { describeValue } from '../text/schema-errors.js';
import { postKeyFromPath } from './post-key.js';
import { parseScheduledAt, SCHEDULED_AT_FORMATS } from '../zoned-time/scheduled-at.js';
import { normalizeTargets, type NormalizedTargets } from './targets.js';
import { codePointLength } from './text-length.js';
import type { SourcePosition } from './types.js';
import type { YamlSource } from '../text/yaml-source.js';

/** The API's limit on `content`, in characters (Unicode code points). */
export const MAX_CONTENT_CHARACTERS = 10_000;

export interface NormalizeContext {
  /** Project-relative path of the post file, forward slashes. */
  file: string;
  /** Path of the file relative to the content folder, forward slashes. */
  fileInContent: string;
  locate: YamlSource['locate'];
  timezone: string;
  accounts: Readonly<Record<string, string>>;
}

export interface NormalizedPost {
  key: string;
  /** Where the key comes from, when it is the `id` field. */
  keyPosition?: SourcePosition;
  content: string;
  scheduledAt: string | null;
  /** How `scheduledAt` is written, when it is set: the clock check (checkSchedule) needs it. */
  schedule?: ScheduleSource;
  /** Set for `scheduledAt: next-slot` (not a draft): the time comes from a slot when planning. */
  slot?: SlotSource;
  /** A draft's `scheduledAt` (`draft: true`): an instant nothing sends, where the calendar shows the draft. */
  pencilledAt?: string;
  targets: NormalizedTargets;
  diagnostics: Diagnostic[];
}

/** `scheduledAt: next-slot`, and where it is written. */
export interface SlotSource {
  at?: SourcePosition;
}

/** The value of `scheduledAt` that asks for the earliest free slot. */
export const NEXT_SLOT = 'next-slot';

/** A post's `scheduledAt` as written and where, next to the instant it means. */
export interface ScheduleSource {
  instant: string;
  raw: string;
  position?: SourcePosition;
}

/** Keys that name an object's own machinery in JavaScript, never a post. */
const RESERVED_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Front-matter + body → the comparable parts of a post (media are resolved separately). The
 * result depends on the text and the config only, never on the clock: `checkSchedule` adds the
 * "in the past" check, so a reading can be kept and reused.
 */
export function normalizePost(frontMatter: unknown, body: string, bodyLine: number, context: NormalizeContext): NormalizedPost {
  const data = isRecord(frontMatter) ? frontMatter : {};
  const diagnostics: Diagnostic[] = [];
  const hasId = typeof data.id === 'string' && data.id.trim() !== '';
  const key = hasId ? (data.id as string) : postKeyFromPath(context.fileInContent);
  if (RESERVED_KEYS.has(key)) {
    // The state keeps posts by key in plain objects, where these names are not ordinary entries.
    diagnostics.push({
      severity: 'error',
      code: 'reserved-key',
      message: `\`${key}\` cannot be a post key`,
      file: context.file,
      ...(hasId ? context.locate(['id']) : {}),
      expected: `a key other than ${[...RESERVED_KEYS].map((name) => `\`${name}\``).join(', ')}`,
      found: `\`${key}\``,
      hint: hasId ? 'Change this `id:`.' : 'Rename the file, or give it an `id:`.',
    });
  }
  const content = body.trim();
  const length = codePointLength(content);
  if (length > MAX_CONTENT_CHARACTERS) {
    diagnostics.push({
      severity: 'error',
      code: 'content-too-long',
      message: 'the post text is too long',
      file: context.file,
      line: bodyLine,
      column: 1,
      expected: `at most ${MAX_CONTENT_CHARACTERS} characters`,
      found: `${length} characters`,
      hint: 'Shorten the text.',
    });
  }
  const slot = slotOf(data, context);
  const schedule = slot === undefined ? normalizeScheduledAt(data, context, diagnostics) : undefined;
  const scheduledAt = schedule?.instant ?? null;
  const pencilledAt = slot === undefined && schedule === undefined ? pencilledTime(data, context) : undefined;
  const targets = normalizeTargets(data.targets, context);
  diagnostics.push(...targets.diagnostics);
  if ((scheduledAt !== null || slot !== undefined) && targets.targets.length === 0 && !hasErrors([...diagnostics, ...targets.diagnostics])) {
    diagnostics.push({
      severity: 'error',
      code: 'schedule-without-targets',
      message: 'a scheduled post needs at least one target account to publish to',
      file: context.file,
      ...context.locate(['scheduledAt']),
      expected: 'one or more entries under `targets:`',
      found: 'no targets',
      hint: 'Add the accounts to publish to under `targets:`, or remove `scheduledAt` to keep the post a draft.',
    });
  }
  return { key, keyPosition: hasId ? context.locate(['id']) : undefined, content, scheduledAt, ...(schedule === undefined ? {} : { schedule }), ...(slot === undefined ? {} : { slot }), ...(pencilledAt === undefined ? {} : { pencilledAt }), targets, diagnostics };
}

/** `scheduledAt: next-slot` on a post that is not a draft; a draft keeps no time at all. */
function slotOf(data: Record<string, unknown>, context: NormalizeContext): SlotSource | undefined {
  if (typeof data.scheduledAt !== 'string' || data.scheduledAt.trim() !== NEXT_SLOT || data.draft === true) return undefined;
  const at = context.locate(['scheduledAt']);
  return at === undefined ? {} : { at };
}

function normalizeScheduledAt(data: Record<string, unknown>, context: NormalizeContext, diagnostics: Diagnostic[]): ScheduleSource | undefined {
  const raw = data.scheduledAt;
  if (typeof raw !== 'string' || raw.trim() === NEXT_SLOT) return undefined;
  const position = context.locate(['scheduledAt']);
  const at = { file: context.file, ...position };
  const quoted = curlyQuoted(raw);
  if (quoted !== undefined) {
    diagnostics.push({ ...curlyQuotesProblem(['scheduledAt'], quoted, { severity: 'error', effect: 'so it is not a date and time' }), ...at });
    return undefined;
  }
  const parsed = parseScheduledAt(raw, context.timezone);
  if (!parsed.ok) {
    const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(raw.trim());
    diagnostics.push({
      severity: 'error',
      code: parsed.reason === 'nonexistent' ? 'scheduled-at-nonexistent' : 'invalid-date',
      message: parsed.reason === 'nonexistent' ? `\`scheduledAt\` is a time that does not exist in ${context.timezone}` : '`scheduledAt` is not a valid date and time',
      ...at,
      expected: SCHEDULED_AT_FORMATS,
      found: describeValue(raw),
      hint: parsed.hint ?? (dateOnly ? `Add a time, e.g. \`${raw.trim()} 09:00\`.` : parsed.reason === 'range' ? 'Check the month, day, hour and minute.' : `Write it as ${SCHEDULED_AT_FORMATS}.`),
    });
    return undefined;
  }
  if (parsed.ambiguous !== undefined) {
    diagnostics.push({
      severity: 'warning',
      code: 'scheduled-at-ambiguous',
      message: `\`scheduledAt\` happens twice in ${context.timezone} (clocks move back); read as ${parsed.ambiguous.chosenOffset}`,
      ...at,
      found: describeValue(raw),
      hint: `Add an offset to choose: ${parsed.ambiguous.chosenOffset} or ${parsed.ambiguous.otherOffset}.`,
    });
  }
  if (data.draft === true) return undefined;
  return { instant: parsed.instant, raw, ...(position === undefined ? {} : { position }) };
}

/** The time a draft's `scheduledAt` names (its problems are reported by normalizeScheduledAt), or undefined. */
function pencilledTime(data: Record<string, unknown>, context: NormalizeContext): string | undefined {
  if (data.draft !== true || typeof data.scheduledAt !== 'string') return undefined;
  const parsed = parseScheduledAt(data.scheduledAt, context.timezone);
  return parsed.ok ? parsed.instant : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
