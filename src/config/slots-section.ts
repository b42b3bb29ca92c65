import { didYouMean } from '../text/did-you-mean.js';
import { formatClock, parseClock, parseWeekday, weekdayName, WEEKDAY_NAMES } from '../zoned-time/index.js';
import { accountAt, isRecord, reportAt, type SectionContext } from './section-context.js';

/** A weekly posting time of an account, on the wall clock of the project's time zone. */
export interface WeeklySlot {
  /** ISO weekday: 1 = Monday … 7 = Sunday. */
  readonly weekday: number;
  /** Minute of the day, 0–1439. */
  readonly minute: number;
}

/** Account id → its slots, sorted by weekday then time, each once. */
export type SlotTable = Readonly<Record<string, readonly WeeklySlot[]>>;

const DAY_WORDS: Readonly<Record<string, readonly number[]>> = { daily: [1, 2, 3, 4, 5, 6, 7], weekdays: [1, 2, 3, 4, 5] };

/** `Mon 09:00` (also `daily 12:00`, `weekdays 08:30`) → slots; undefined when it is not such a text. */
export function parseSlot(text: string): WeeklySlot[] | undefined {
  const match = /^(\S+)\s+(\S+)$/.exec(text.trim());
  if (match === null) return undefined;
  const minute = parseClock(match[2]!);
  const day = match[1]!.toLowerCase();
  const weekdays = DAY_WORDS[day] ?? (parseWeekday(day) === undefined ? undefined : [parseWeekday(day)!]);
  return minute === undefined || weekdays === undefined ? undefined : weekdays.map((weekday) => ({ weekday, minute }));
}

/** `Mon 09:00`. */
export function formatSlot(slot: WeeklySlot): string {
  return `${weekdayName(slot.weekday)} ${formatClock(slot.minute)}`;
}

/** `slots:` of postsync.yaml → the slot table; unknown accounts and malformed slots are reported. */
export function readSlotsSection(raw: unknown, context: SectionContext): SlotTable {
  if (!isRecord(raw)) return {};
  const table: Record<string, WeeklySlot[]> = {};
  for (const [account, list] of Object.entries(raw)) {
    if (!Array.isArray(list)) continue;
    const id = accountAt(context, ['slots', account], account, { atKey: true });
    const slots = list.flatMap((text: unknown, index) => {
      if (typeof text !== 'string') return [];
      const parsed = parseSlot(text);
      if (parsed === undefined) reportAt(context, ['slots', account, index], invalidSlot(text));
      return parsed ?? [];
    });
    if (id === undefined) continue;
    const merged = [...(table[id] ?? []), ...slots].sort((a, b) => a.weekday - b.weekday || a.minute - b.minute);
    table[id] = merged.filter((slot, index) => index === 0 || slot.weekday !== merged[index - 1]!.weekday || slot.minute !== merged[index - 1]!.minute);
  }
  return table;
}

function invalidSlot(text: string) {
  const [day = '', time = ''] = text.trim().split(/\s+/);
  const dayWords = [...WEEKDAY_NAMES, ...Object.keys(DAY_WORDS)];
  const badDay = parseWeekday(day) === undefined && DAY_WORDS[day.toLowerCase()] === undefined;
  return {
    code: 'invalid-slot',
    message: `\`${text}\` is not a slot`,
    expected: 'a day and a time, such as `Mon 09:00`, `daily 12:00` or `weekdays 08:30`',
    found: `\`${text}\``,
    hint: (badDay ? didYouMean(day, dayWords) : undefined) ?? (parseClock(time) === undefined && !badDay ? 'Write the time as HH:MM on a 24-hour clock.' : `Start with a day: ${dayWords.map((d) => `\`${d}\``).join(', ')}.`),
  };
}
