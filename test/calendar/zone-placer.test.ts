import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { zonePlacer } from '../../src/calendar/zone-placer.js';

const formats = new Map<string, Intl.DateTimeFormat>();

/** Day, time and offset of an instant in a zone, from Intl alone. */
function byIntl(ms: number, timeZone: string): { day: string; time: string; offset: string } {
  let format = formats.get(timeZone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', timeZoneName: 'longOffset' });
    formats.set(timeZone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(new Date(ms)).map((part) => [part.type, part.value]));
  const offset = parts.timeZoneName === 'GMT' ? '+00:00' : parts.timeZoneName!.replace('GMT', '');
  return { day: `${parts.year}-${parts.month}-${parts.day}`, time: `${parts.hour}:${parts.minute}`, offset };
}

describe('placing instants in a time zone', () => {
  it('agrees with Intl for any instant, around DST changes too', () => {
    const zones = ['Europe/Berlin', 'America/Los_Angeles', 'Australia/Lord_Howe', 'Asia/Kathmandu', 'America/St_Johns', 'UTC'];
    const placers = new Map(zones.map((zone) => [zone, zonePlacer(zone)]));
    const start = Date.UTC(2026, 0, 1);
    const end = Date.UTC(2029, 0, 1);
    fc.assert(
      fc.property(fc.constantFrom(...zones), fc.integer({ min: start / 60_000, max: end / 60_000 }), (zone, minute) => {
        const ms = minute * 60_000;
        const { at, ...placed } = placers.get(zone)!(new Date(ms).toISOString())!;
        expect(at).toBe(new Date(ms).toISOString());
        expect(placed).toEqual(byIntl(ms, zone));
      }),
      { numRuns: 1000 },
    );
    // Random minutes seldom fall next to a change: every minute around each change of 2027 too.
    for (const zone of zones) {
      const place = placers.get(zone)!;
      for (let day = Date.UTC(2027, 0, 1); day < Date.UTC(2028, 0, 1); day += 86_400_000) {
        if (byIntl(day, zone).offset === byIntl(day + 86_400_000, zone).offset) continue;
        for (let hour = day; hour < day + 86_400_000; hour += 3_600_000) {
          if (byIntl(hour, zone).offset === byIntl(hour + 3_600_000, zone).offset) continue;
          for (let ms = hour - 90 * 60_000; ms <= hour + 150 * 60_000; ms += 60_000) {
            const { at: _at, ...placed } = place(new Date(ms).toISOString())!;
            expect(placed, `${zone} ${new Date(ms).toISOString()}`).toEqual(byIntl(ms, zone));
          }
        }
      }
    }
  });

  it('tells apart the two 02:30 of the night Berlin turns its clocks back', () => {
    const place = zonePlacer('Europe/Berlin');
    expect(place('2027-10-31T00:30:00.000Z')).toMatchObject({ day: '2027-10-31', time: '02:30', offset: '+02:00' });
    expect(place('2027-10-31T01:30:00.000Z')).toMatchObject({ day: '2027-10-31', time: '02:30', offset: '+01:00' });
    expect(place(null)).toBeNull();
    expect(place('not a time')).toBeNull();
  });
});
