import { fullFormats } from 'ajv-formats/dist/formats.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { StateError } from '../../src/errors.js';
import { emptyProjectState, parseState } from '../../src/state/state-file.js';

// What the schema's `date-time` format means: ajv-formats' RFC 3339 check, time zone required.
const isDateTime = (text: string): boolean => (fullFormats['date-time'] as { validate: (text: string) => boolean }).validate(text);

const at = '2026-01-01T00:00:00.000Z';
const stateText = (instant: string): string =>
  JSON.stringify({
    version: 1,
    targets: {
      'local:demo': {
        ...emptyProjectState({ apiUrl: 'http://127.0.0.1:1/public/v1', projectId: 'demo' }),
        posts: { launch: { postId: 'p1', file: 'posts/launch.md', appliedHash: 'a'.repeat(64), remoteUpdatedAt: at, appliedAt: instant } },
      },
    },
  });

async function readsAsValid(instant: string): Promise<boolean> {
  try {
    await parseState(stateText(instant), 'state.json');
    return true;
  } catch (error) {
    expect(error).toBeInstanceOf(StateError);
    expect((error as StateError).message).toContain('/appliedAt: must match format "date-time"');
    return false;
  }
}

const digits = (count: number, min: number, max: number) => fc.integer({ min, max }).map((value) => String(value).padStart(count, '0'));
/** Mostly a part as `Date#toISOString` writes it, sometimes one at or past its bounds or in another form. */
const part = (usual: fc.Arbitrary<string>, other: fc.Arbitrary<string>) => fc.oneof({ weight: 5, arbitrary: usual }, { weight: 1, arbitrary: other });
// Texts around the form `Date#toISOString` writes: every field at and past its bounds, other separators and zones.
const nearInstant = fc
  .tuple(
    part(digits(4, 0, 9999), fc.constantFrom('1900', '2000', '2024', '2100', '0000', '12345', '999')),
    part(digits(2, 1, 12), fc.constantFrom('00', '13', '1', '001', '02')),
    part(digits(2, 1, 28), fc.constantFrom('00', '29', '30', '31', '32', '7')),
    part(fc.constant('T'), fc.constantFrom('t', ' ', '_', 'TT', '')),
    part(digits(2, 0, 23), fc.constantFrom('24', '2', '23')),
    part(digits(2, 0, 59), fc.constantFrom('60', '59', '5')),
    part(digits(2, 0, 59), fc.constantFrom('60', '61', '59', '5')),
    part(fc.constantFrom('.000', '.999', ''), fc.constantFrom('.', '.0', '.1234567', ',000', '.00a')),
    part(fc.constant('Z'), fc.constantFrom('z', '', '+00:00', '-23:59', '+24:00', '+0130', '+01', '-00:60', 'ZZ', 'Z\n', ' ')),
  )
  .map(([year, month, day, separator, hour, minute, second, fraction, zone]) => `${year}-${month}-${day}${separator}${hour}:${minute}:${second}${fraction}${zone}`);

describe('the state file schema: instants', () => {
  it('takes a text as an instant exactly when it is an RFC 3339 date-time with a time zone', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(nearInstant, fc.date({ noInvalidDate: true }).map((date) => date.toISOString()), fc.string({ maxLength: 30 })), async (instant) => {
        expect(await readsAsValid(instant), JSON.stringify(instant)).toBe(isDateTime(instant));
      }),
      { numRuns: 1500 },
    );
  });

  it('knows the days of each month, leap days and leap seconds', async () => {
    const cases = [
      '2024-02-29T00:00:00.000Z', '2023-02-29T00:00:00.000Z', '2000-02-29T12:00:00Z', '1900-02-29T12:00:00Z',
      '2026-04-30T00:00:00.000Z', '2026-04-31T00:00:00.000Z', '2026-01-31T23:59:59.999Z', '2026-00-10T00:00:00.000Z',
      '2026-12-31T23:59:60.000Z', '2026-12-31T22:59:60+01:00', '2026-12-31T23:58:60Z', '2026-06-01T24:00:00.000Z',
      '2026-01-00T00:00:00.000Z', '2026-01-10T00:00:00.Z', '2026-01-10T00:00:00.000z', '2026-01-10t00:00:00.000Z',
    ];
    for (const instant of cases) expect(await readsAsValid(instant), instant).toBe(isDateTime(instant));
  });
});
