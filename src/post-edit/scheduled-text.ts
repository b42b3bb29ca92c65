/**
 * A new `scheduledAt` written in the form the file wrote the old one in: `T` or a space between
 * date and time, seconds (and their fraction) when it had them, and its zone: an offset (the
 * project's at the new time, `offset`), `Z` (the time in UTC), or none (the project's clock).
 * `at` is a wall time on the project's clock, `YYYY-MM-DD HH:mm`. Without a written form to keep,
 * or without the offset a zoned form needs, the time is written as `at`.
 */
export function scheduledText(at: string, written: string | null, offset: string | undefined): string {
  const form = written === null ? null : FORM.exec(written.trim());
  if (form === null) return at;
  const [, separator, seconds, fraction, zone] = form;
  if (zone !== undefined && offset === undefined) return at;
  const offsetMinutes = offset === undefined ? 0 : minutesOf(offset);
  if (offsetMinutes === undefined) return at;
  // In UTC when the file wrote `Z`: the wall time less the project's offset.
  const wall = zone === undefined || !/^z$/i.test(zone) ? at : utcWall(at, offsetMinutes);
  const clock = `${wall.slice(0, 10)}${separator}${wall.slice(11)}${seconds === undefined ? '' : `:00${fraction === undefined ? '' : `.${'0'.repeat(fraction.length)}`}`}`;
  if (zone === undefined) return clock;
  if (/^z$/i.test(zone)) return `${clock}${zone}`;
  // The offset in the file's own style: with or without its colon.
  return `${clock}${zone.includes(':') ? offset : offset!.replace(':', '')}`;
}

const FORM = /^\d{4}-\d{2}-\d{2}([Tt ])\d{2}:\d{2}(?::(\d{2})(?:\.(\d{1,3}))?)?(?:\s*([Zz]|[+-]\d{2}(?::?\d{2})?))?$/;

function minutesOf(offset: string): number | undefined {
  const match = /^([+-])(\d{2}):?(\d{2})$/.exec(offset);
  return match === null ? undefined : (match[1] === '-' ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3]));
}

function utcWall(at: string, offsetMinutes: number): string {
  const ms = Date.parse(`${at.replace(' ', 'T')}:00Z`) - offsetMinutes * 60_000;
  return new Date(ms).toISOString().slice(0, 16).replace('T', ' ');
}
