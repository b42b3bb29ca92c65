/** Wall-clock parts of an instant in one IANA time zone. */
interface ZonedParts {
  year: string;
  month: string;
  day: string;
  hour: string;
  minute: string;
  second: string;
  /** Offset from UTC in minutes (positive east of Greenwich). */
  offsetMinutes: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

function zonedParts(instantMs: number, timeZone: string): ZonedParts {
  const parts: Record<string, string> = {};
  for (const part of formatterFor(timeZone).formatToParts(new Date(instantMs))) parts[part.type] = part.value;
  const wallMs = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second));
  const wholeSecondMs = instantMs - (((instantMs % 1000) + 1000) % 1000);
  return {
    year: parts.year!.padStart(4, '0'),
    month: parts.month!,
    day: parts.day!,
    hour: parts.hour!,
    minute: parts.minute!,
    second: parts.second!,
    offsetMinutes: Math.round((wallMs - wholeSecondMs) / 60_000),
  };
}

function offsetText(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/**
 * An instant as RFC 3339 wall time in `timeZone` with its numeric offset, e.g.
 * `2026-12-01T09:00:00+01:00`: readable where the team works, and the same instant wherever
 * it is read. Milliseconds appear only when they are not zero. A value that is not a date is
 * returned unchanged.
 */
export function formatInZone(instant: string, timeZone: string): string {
  const ms = Date.parse(instant);
  if (Number.isNaN(ms)) return instant;
  const p = zonedParts(ms, timeZone);
  const millis = ((ms % 1000) + 1000) % 1000;
  const fraction = millis === 0 ? '' : `.${String(millis).padStart(3, '0')}`;
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}:${p.second}${fraction}${offsetText(p.offsetMinutes)}`;
}

/** `YYYY-MM` of an instant in `timeZone` (the month folder of an imported post). */
export function monthInZone(instant: string, timeZone: string): string | undefined {
  const ms = Date.parse(instant);
  if (Number.isNaN(ms)) return undefined;
  const p = zonedParts(ms, timeZone);
  return `${p.year}-${p.month}`;
}
