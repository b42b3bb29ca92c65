import type { Diagnostic } from '../diagnostics.js';
import type { SourcePosition } from '../text/yaml-source.js';
import type { DataPath, YamlSource } from '../text/yaml-source.js';
import { parseScheduledAt, SCHEDULED_AT_FORMATS } from '../zoned-time/scheduled-at.js';
import { parseCivilDate, parseClock, parseWallMoment, parseWeekday, wallMinutes, type CivilDate } from '../zoned-time/index.js';

/** A repeat as the front-matter writes it, read and checked (dates and times still on the wall clock). */
export interface RepeatSpec {
  interval: number;
  unit: 'day' | 'week' | 'month';
  /** Weekdays 1–7 (weeks) or days of the month 1–31 (months), sorted, each once; null: the first date's. */
  on: readonly number[] | null;
  /** How many occurrences (skipped dates do not count), or the last wall moment allowed (`wallMinutes`, included). */
  end: { count: number } | { until: number; label: string };
  skip: readonly { date: string; path: DataPath }[];
  /** Texts used in turn after the body: occurrence n uses the body when n % (1 + variants) is 0. */
  variants: readonly string[];
  overrides: readonly OccurrenceOverride[];
}

/** `occurrences: { 2027-01-18: { … } }`: one occurrence changed in its own way. */
export interface OccurrenceOverride {
  date: CivilDate;
  /** As written. */
  key: string;
  /** A time of day on the same date, or an instant (it moves to another date). */
  scheduledAt?: { minute: number } | { instant: string };
  content?: string;
  draft?: boolean;
  at?: SourcePosition;
}

export const MAX_OCCURRENCES = 500;

const EVERY = /^(?:(\d+)\s+)?(day|days|week|weeks|month|months|daily|weekly|monthly)(?:\s+on\s+(.+))?$/i;
const UNIT_WORDS: Record<string, RepeatSpec['unit']> = { day: 'day', days: 'day', daily: 'day', week: 'week', weeks: 'week', weekly: 'week', month: 'month', months: 'month', monthly: 'month' };

export interface SpecContext {
  file: string;
  locate: YamlSource['locate'];
  /** `config.timezone`, for an override's date and time without an offset. */
  timezone: string;
  diagnostics: Diagnostic[];
}

/**
 * `repeat:`, `variants:` and `occurrences:` of a front-matter → a RepeatSpec, or undefined with
 * the problems reported. Values of the wrong type were reported by the schema and are skipped.
 */
export function readRepeatSpec(data: Record<string, unknown>, context: SpecContext): RepeatSpec | undefined {
  const errors = context.diagnostics.length;
  const report: Report = (path, problem, options = {}) => context.diagnostics.push({ severity: 'error', ...problem, file: context.file, ...context.locate(path, options) });
  const repeat = isRecord(data.repeat) ? data.repeat : {};
  const every = typeof repeat.every === 'string' ? EVERY.exec(repeat.every.trim()) : null;
  if (typeof repeat.every === 'string' && every === null) {
    report(['repeat', 'every'], { code: 'invalid-repeat', message: '`repeat.every` is not a repeat', expected: 'a number and a unit: `day`, `2 weeks`, `month`, or with days: `week on Mon, Thu`, `month on day 1`', found: `\`${repeat.every}\``, hint: 'Write how often, such as `every: 2 weeks`.' });
  }
  const interval = every?.[1] === undefined ? 1 : Number(every[1]);
  if (interval < 1) report(['repeat', 'every'], { code: 'invalid-repeat', message: '`repeat.every` must be at least 1', found: `\`${String(repeat.every)}\``, hint: 'Write `every: day` for every day.' });
  const unit = UNIT_WORDS[(every?.[2] ?? 'week').toLowerCase()]!;
  const onText = every?.[3] ?? repeat.on;
  if (every?.[3] !== undefined && repeat.on !== undefined) report(['repeat', 'on'], { code: 'invalid-repeat', message: '`repeat.on` is also written in `every`', hint: 'Keep one of the two.' });
  const on = onText === undefined ? null : readOn(onText, unit, (problem) => report(['repeat', every?.[3] !== undefined ? 'every' : 'on'], problem));
  const end = readEnd(repeat, report);
  const skip = (Array.isArray(repeat.skip) ? repeat.skip : repeat.skip === undefined ? [] : [repeat.skip]).flatMap((text: unknown, index) => {
    const path = Array.isArray(repeat.skip) ? ['repeat', 'skip', index] : ['repeat', 'skip'];
    const date = typeof text === 'string' ? parseCivilDate(text) : undefined;
    if (typeof text === 'string' && date === undefined) report(path, { code: 'invalid-date', message: `\`${text}\` in \`repeat.skip\` is not a date`, expected: 'a date such as `2027-02-14`', found: `\`${text}\``, hint: 'Write the date as YYYY-MM-DD.' });
    return date === undefined ? [] : [{ date: text as string, path }];
  });
  const variants = Array.isArray(data.variants) ? data.variants.filter((text): text is string => typeof text === 'string').map((text) => text.trim()) : [];
  const overrides = readOverrides(data.occurrences, context, report);
  if (context.diagnostics.length > errors || end === undefined) return undefined;
  return { interval, unit, on, end, skip, variants, overrides };
}

type Report = (path: DataPath, problem: Omit<Diagnostic, 'severity' | 'file' | 'line' | 'column'>, options?: { key?: boolean }) => void;

function readOn(value: unknown, unit: RepeatSpec['unit'], report: (problem: Omit<Diagnostic, 'severity' | 'file' | 'line' | 'column'>) => void): number[] | null {
  const words = (Array.isArray(value) ? value.map(String) : String(value).split(',')).map((word) => word.trim().replace(/^day\s+/i, '')).filter(Boolean);
  const found = `\`${Array.isArray(value) ? value.join(', ') : String(value)}\``;
  if (unit === 'day') {
    report({ code: 'invalid-repeat', message: 'a daily repeat has no `on`', found, hint: 'Use `every: week` with weekdays, or `every: month` with days of the month.' });
    return null;
  }
  const numbers = words.map((word) => (unit === 'week' ? parseWeekday(word) : /^\d{1,2}$/.test(word) && Number(word) >= 1 && Number(word) <= 31 ? Number(word) : undefined));
  if (words.length === 0 || numbers.includes(undefined)) {
    report(
      unit === 'week'
        ? { code: 'invalid-repeat', message: '`on` of a weekly repeat must list weekdays', expected: 'weekdays such as `Mon, Thu`', found, hint: 'Write the days as Mon, Tue, Wed, Thu, Fri, Sat, Sun.' }
        : { code: 'invalid-repeat', message: '`on` of a monthly repeat must list days of the month', expected: 'days such as `day 1` or `1, 15` (1–31; a later day than a month has is its last day)', found, hint: 'Write `on: day 1`.' },
    );
    return null;
  }
  return [...new Set(numbers as number[])].sort((a, b) => a - b);
}

function readEnd(repeat: Record<string, unknown>, report: Report): RepeatSpec['end'] | undefined {
  const hasCount = repeat.count !== undefined;
  const hasUntil = repeat.until !== undefined;
  if (hasCount === hasUntil) {
    report(['repeat'], { code: 'invalid-repeat', message: hasCount ? '`repeat` has both `count` and `until`' : '`repeat` needs `count` or `until`', expected: 'one of `count: 6` and `until: 2027-06-30`', hint: hasCount ? 'Keep one of the two.' : 'Say when the repeat ends, e.g. `count: 6`.' });
    return undefined;
  }
  if (hasCount) {
    const count = repeat.count;
    if (!Number.isInteger(count) || (count as number) < 1) return undefined;
    if ((count as number) > MAX_OCCURRENCES) {
      report(['repeat', 'count'], { code: 'repeat-too-long', message: `a repeat has at most ${MAX_OCCURRENCES} occurrences`, found: String(count), hint: 'Split it into several files.' });
      return undefined;
    }
    return { count: count as number };
  }
  const text = repeat.until;
  if (typeof text !== 'string') return undefined;
  const parsed = parseWallMoment(text);
  if (parsed === undefined) {
    report(['repeat', 'until'], { code: 'invalid-date', message: '`repeat.until` is not a date', expected: 'a date such as `2027-06-30` (included), or a date and time', found: `\`${text}\``, hint: 'Write the date as YYYY-MM-DD.' });
    return undefined;
  }
  // A date alone means through the end of that day.
  return { until: wallMinutes(parsed.moment) + (parsed.hasTime ? 0 : 1439), label: text.trim() };
}

function readOverrides(raw: unknown, context: SpecContext, report: Report): OccurrenceOverride[] {
  if (!isRecord(raw)) return [];
  return Object.entries(raw).flatMap(([key, value]): OccurrenceOverride[] => {
    const date = parseCivilDate(key);
    if (date === undefined) {
      report(['occurrences', key], { code: 'invalid-date', message: `\`${key}\` in \`occurrences\` is not a date`, expected: 'the date of an occurrence, such as `2027-01-18`', found: `\`${key}\``, hint: 'Write the date as YYYY-MM-DD, as in the occurrence key `…@2027-01-18`.' }, { key: true });
      return [];
    }
    if (!isRecord(value)) return [];
    const override: OccurrenceOverride = { date, key, at: context.locate(['occurrences', key], { key: true }) };
    if (typeof value.scheduledAt === 'string') {
      const minute = parseClock(value.scheduledAt);
      const parsed = minute === undefined ? parseScheduledAt(value.scheduledAt, context.timezone) : undefined;
      if (minute !== undefined) override.scheduledAt = { minute };
      else if (parsed?.ok === true) override.scheduledAt = { instant: parsed.instant };
      else {
        report(['occurrences', key, 'scheduledAt'], {
          code: parsed?.ok === false && parsed.reason === 'nonexistent' ? 'scheduled-at-nonexistent' : 'invalid-date',
          message: `\`occurrences.${key}.scheduledAt\` is not a time`,
          expected: `a time of day such as \`11:00\` (same date), or ${SCHEDULED_AT_FORMATS}`,
          found: `\`${value.scheduledAt}\``,
          hint: (parsed?.ok === false ? parsed.hint : undefined) ?? 'A time alone keeps the occurrence on its date.',
        });
      }
    }
    if (typeof value.content === 'string') override.content = value.content.trim();
    if (typeof value.draft === 'boolean') override.draft = value.draft;
    return [override];
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
