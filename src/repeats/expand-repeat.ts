import type { Diagnostic } from '../diagnostics.js';
import { closestMatch } from '../text/did-you-mean.js';
import type { SourcePosition } from '../text/yaml-source.js';
import type { DataPath, YamlSource } from '../text/yaml-source.js';
import { formatCivilDate, instantAt, wallMinutes, wallMomentOf } from '../zoned-time/index.js';
import { MAX_OCCURRENCES, readRepeatSpec, type RepeatSpec } from './repeat-spec.js';
import { seriesDates } from './series-dates.js';
import { occurrenceKey } from './occurrence-key.js';

/** One occurrence of a repeated post: an ordinary post with its own key. */
export interface Occurrence {
  /** `<key>@<date>`: stable while its date stays in the series. */
  key: string;
  /** Its date in the series (YYYY-MM-DD, project time zone), also when an override moves it. */
  date: string;
  /** Its place in the series, skipped dates counted (0 for the first date). */
  index: number;
  /** An instant. */
  scheduledAt: string;
  /** Its text: the body, a variant in turn, or its override's `content`. */
  text: string;
  /** Where the text is written in the front-matter; null: it is the body. */
  textPath: DataPath | null;
  draft: boolean;
  /** Where its entry under `occurrences:` is written, when it has one. */
  overrideAt?: SourcePosition;
  /** Its wall time did not exist that day (DST gap) and was moved forward by the gap. */
  shifted: boolean;
}

export interface RepeatInput {
  /** The post's key (`id` or path); occurrences are `<key>@<date>`. */
  key: string;
  file: string;
  /** The front-matter: `repeat`, `variants`, `occurrences` are read from it. */
  frontMatter: Record<string, unknown>;
  locate: YamlSource['locate'];
  /** The instant `scheduledAt` names (also for a draft), or null when it has none or is not a time. */
  scheduledAt: string | null;
  draft: boolean;
  /** The post's body, trimmed. */
  body: string;
  timezone: string;
}

/** Whether a front-matter asks for a repeat (or writes the fields that only a repeat uses). */
export function hasRepeat(frontMatter: Record<string, unknown>): boolean {
  return frontMatter.repeat !== undefined || frontMatter.variants !== undefined || frontMatter.occurrences !== undefined;
}

/**
 * The occurrences of a repeated post, in date order, with the problems of its `repeat:`,
 * `variants:` and `occurrences:` (each with its position). Pure and deterministic: dates are
 * worked out on the wall clock of `timezone` (09:00 stays 09:00 across DST changes), so the same
 * file gives the same keys and instants on every machine. Raising `count` or moving `until`
 * later only adds occurrences at the end; lowering or moving earlier only removes the last ones.
 */
export function expandRepeat(input: RepeatInput): { occurrences: Occurrence[]; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  // An entry under `occurrences:` is pointed at by its date, the key.
  const report: Report = (path, problem, severity = 'error') => diagnostics.push({ severity, ...problem, file: input.file, ...input.locate(path, { key: path[0] === 'occurrences' }) });
  if (input.frontMatter.repeat === undefined) {
    const field = input.frontMatter.variants !== undefined ? 'variants' : 'occurrences';
    report([field], { code: 'repeat-missing', message: `\`${field}\` is used only with \`repeat\``, hint: 'Add `repeat:` (e.g. `repeat: { every: week, count: 6 }`), or remove it.' });
    return { occurrences: [], diagnostics };
  }
  const spec = readRepeatSpec(input.frontMatter, { file: input.file, locate: input.locate, timezone: input.timezone, diagnostics });
  if (input.scheduledAt === null) {
    if (typeof input.frontMatter.scheduledAt !== 'string' || input.frontMatter.scheduledAt.trim() === 'next-slot') {
      report(['repeat'], { code: 'repeat-without-time', message: 'a repeat needs the date and time of its first occurrence in `scheduledAt`', expected: '`scheduledAt: 2027-01-04 09:00`', found: typeof input.frontMatter.scheduledAt === 'string' ? `\`scheduledAt: ${input.frontMatter.scheduledAt}\`` : 'no `scheduledAt`', hint: 'Write when the first occurrence goes out; the others follow `every`.' });
    }
    return { occurrences: [], diagnostics };
  }
  if (spec === undefined) return { occurrences: [], diagnostics };
  const occurrences = occurrencesOf(spec, input, report);
  return { occurrences, diagnostics };
}

type Report = (path: DataPath, problem: Omit<Diagnostic, 'severity' | 'file' | 'line' | 'column'>, severity?: Diagnostic['severity']) => void;

function occurrencesOf(spec: RepeatSpec, input: RepeatInput, report: Report): Occurrence[] {
  const anchor = wallMomentOf(Date.parse(input.scheduledAt!), input.timezone);
  const skipped = new Set(spec.skip.map((s) => s.date));
  const texts = [input.body, ...spec.variants];
  const overrides = new Map(spec.overrides.map((o) => [formatCivilDate(o.date), o]));
  const series: string[] = [];
  const occurrences: Occurrence[] = [];
  let index = -1;
  for (const date of seriesDates(spec, anchor.date)) {
    index++;
    const text = formatCivilDate(date);
    if ('until' in spec.end ? wallMinutes({ date, minute: anchor.minute }) > spec.end.until : occurrences.length === spec.end.count) break;
    series.push(text);
    if (skipped.has(text)) continue;
    if (occurrences.length === MAX_OCCURRENCES) {
      report(['repeat'], { code: 'repeat-too-long', message: `this repeat has more than ${MAX_OCCURRENCES} occurrences`, hint: 'End it earlier, or split it into several files.' });
      return [];
    }
    const override = overrides.get(text);
    const variant = index % texts.length;
    const moved = override?.scheduledAt;
    const time = moved === undefined || 'minute' in moved ? instantAt({ date, minute: moved?.minute ?? anchor.minute }, input.timezone) : { instantMs: Date.parse(moved.instant), shifted: false };
    occurrences.push({
      key: occurrenceKey({ of: input.key, date: text }),
      date: text,
      index,
      scheduledAt: new Date(time.instantMs).toISOString(),
      text: override?.content ?? texts[variant]!,
      textPath: override?.content !== undefined ? ['occurrences', override.key, 'content'] : variant === 0 ? null : ['variants', variant - 1],
      draft: override?.draft ?? input.draft,
      ...(override?.at === undefined ? {} : { overrideAt: override.at }),
      shifted: time.shifted,
    });
  }
  // With a count there is always one; an `until` can come before the first date.
  if (occurrences.length === 0 && 'until' in spec.end) {
    report(['repeat', 'until'], { code: 'repeat-empty', message: 'this repeat has no occurrence: `until` comes before the first one', expected: 'an end after `scheduledAt`', found: `\`until: ${spec.end.label}\``, hint: 'Move `until` after `scheduledAt`.' });
  }
  const produced = new Set(occurrences.map((o) => o.date));
  for (const override of spec.overrides) {
    const text = formatCivilDate(override.date);
    if (produced.has(text)) continue;
    report(['occurrences', override.key], {
      code: skipped.has(text) ? 'occurrence-skipped' : 'unknown-occurrence',
      message: skipped.has(text) ? `occurrence ${text} is skipped in \`repeat.skip\`` : `${text} is not a date of this repeat`,
      expected: 'the date of an occurrence',
      found: `\`${override.key}\``,
      hint: skipped.has(text) ? 'Remove it from `repeat.skip`, or remove this entry.' : nearestDate(text, occurrences.map((o) => o.date)),
    });
  }
  for (const skip of spec.skip) {
    if (!series.includes(skip.date)) report(skip.path, { code: 'unused-skip', message: `${skip.date} in \`repeat.skip\` is not a date of this repeat`, found: `\`${skip.date}\``, hint: nearestDate(skip.date, series) }, 'warning');
  }
  return occurrences;
}

function nearestDate(date: string, dates: readonly string[]): string {
  const close = closestMatch(date, dates);
  const nearest = close ?? [...dates].sort((a, b) => Math.abs(Date.parse(a) - Date.parse(date)) - Math.abs(Date.parse(b) - Date.parse(date)))[0];
  return nearest === undefined ? 'This repeat has no occurrence.' : `did you mean ${nearest}?`;
}
