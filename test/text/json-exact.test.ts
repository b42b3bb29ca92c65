import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { survivesJson } from '../../src/text/json-exact.js';

function holdsNegativeZero(value: unknown): boolean {
  if (Object.is(value, -0)) return true;
  return typeof value === 'object' && value !== null && Object.values(value).some(holdsNegativeZero);
}

describe('survivesJson', () => {
  it('holds only for values that JSON text gives back exactly as a structured clone does', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        // JSON values all survive but -0, which JSON text turns into 0.
        expect(survivesJson(value)).toBe(!holdsNegativeZero(value));
        if (survivesJson(value)) expect(JSON.parse(JSON.stringify(value))).toStrictEqual(structuredClone(value));
      }),
      { numRuns: 500 },
    );
    const exact = fc.anything({ values: [fc.string({ unit: 'binary' }), fc.boolean(), fc.constant(null), fc.double(), fc.integer(), fc.constant(undefined)], withObjectString: false });
    fc.assert(
      fc.property(exact, (value) => {
        if (survivesJson(value)) expect(JSON.parse(JSON.stringify(value))).toStrictEqual(structuredClone(value));
      }),
      { numRuns: 500 },
    );
  });

  it('refuses what JSON would change: non-finite numbers, -0, undefined, holes, other objects', () => {
    const proto = JSON.parse('{"__proto__": {"x": 1}}') as unknown;
    expect(survivesJson({ a: [1, 'two', null, true, { b: 'lone \ud800 surrogate' }], proto })).toBe(true);
    for (const value of [Number.NaN, Infinity, -Infinity, -0, undefined, { a: undefined }, [1, , 3], new Map(), new Date(0), /x/, 1n, () => 1, Symbol('s'), Object.create(null)]) {
      expect(survivesJson(value), String(typeof value)).toBe(false);
      expect(survivesJson({ nested: [value] })).toBe(false);
    }
  });
});
