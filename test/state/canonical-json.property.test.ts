import fc from 'fast-check';
import stringify from 'safe-stable-stringify';
import { describe, expect, it } from 'vitest';
import { canonicalJson, isSortedJsonData, prettyCanonicalJson } from '../../src/state/hash.js';

// The text every existing hash was computed from: keys sorted by safe-stable-stringify, undefined
// dropped, a cycle a TypeError. canonicalJson must write exactly this for every value, or hashes
// in existing state files, plans and Idempotency-Keys stop matching.
const reference = stringify.configure({ deterministic: true, circularValue: TypeError });

type Outcome = { text: string } | { error: string };

function outcome(write: () => string | undefined): Outcome {
  try {
    const text = write();
    return text === undefined ? { error: `TypeError: cannot serialize` } : { text };
  } catch (error) {
    return { error: `${(error as Error).name}: ${(error as Error).message.startsWith('cannot serialize') ? 'cannot serialize' : (error as Error).message}` };
  }
}

function expectSameText(value: unknown): void {
  expect(outcome(() => canonicalJson(value))).toEqual(outcome(() => reference(value)));
  expect(outcome(() => prettyCanonicalJson(value))).toEqual(outcome(() => {
    const text = reference(value, null, 2);
    return text === undefined ? undefined : `${text}\n`;
  }));
}

/** `value` rebuilt with every object's keys inserted in sorted order (integer-like keys still come first in JS). */
function sortedCopy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedCopy);
  if (value === null || typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return value;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) copy[key] = sortedCopy((value as Record<string, unknown>)[key]);
  return copy;
}

const trickyText = fc.oneof(
  fc.string({ unit: 'binary' }),
  fc.string({ unit: fc.constantFrom('a', 'Z', '\u0000', '\u0008', '\u001f', '\u007f', '"', '\\', '/', '\u2028', '\ud800', '\udbff', '\udc00', '\udfff', '😀', 'é') }),
);
const key = fc.oneof(trickyText, fc.constantFrom('0', '1', '9', '10', '01', '-1', '1.5', '4294967294', '4294967295', '__proto__', 'constructor', 'toJSON', 'length', ''));
const number = fc.oneof(fc.double(), fc.integer(), fc.constantFrom(0, -0, NaN, Infinity, -Infinity, 1e21, 5e-324, Number.MAX_SAFE_INTEGER + 2));
const scalar = fc.oneof(trickyText, number, fc.boolean(), fc.constant(null), fc.constant(undefined));
// Values JSON.stringify and safe-stable-stringify write differently, or not at all.
const withToJson = <T extends object>(value: T): T => Object.assign(value, { toJSON: () => ({ b: 1, a: 2 }) });
const odd = fc.oneof(
  fc.bigInt(),
  fc.date({ noInvalidDate: false }),
  fc.uint8Array({ maxLength: 12 }),
  fc.constantFrom(() => 1, Symbol('s'), new Map([[1, 2]]), new String('ab'), new Number(1), new Boolean(false)),
  fc.constantFrom(Object.assign(Object.create({ inherited: 1 }) as object, { own: 2 }), withToJson({}), withToJson([1]), withToJson(Object.create(null) as object)),
);

const { tree } = fc.letrec<{ tree: unknown; node: unknown }>((tie) => ({
  tree: fc.oneof({ depthSize: 'small', withCrossShrink: true }, scalar, tie('node'), tie('node')),
  node: fc.oneof(
    fc.array(tie('tree'), { maxLength: 5 }),
    fc.sparseArray(tie('tree'), { maxLength: 4 }),
    fc.dictionary(key, tie('tree'), { maxKeys: 6 }),
    fc.dictionary(key, tie('tree'), { maxKeys: 4, noNullPrototype: false }),
    fc.oneof(odd, fc.dictionary(key, odd, { maxKeys: 2 }), fc.array(odd, { maxLength: 2 })),
  ),
}));

describe('canonicalJson writes the text every existing hash was computed from', () => {
  it('for any JSON value, as generated and with its keys inserted in sorted order', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expectSameText(value);
        expectSameText(sortedCopy(value));
      }),
      { numRuns: 300 },
    );
  });

  it('for values with unsorted and integer-like keys, lone surrogates, control characters, undefined, holes and values JSON has no form for', () => {
    fc.assert(
      fc.property(tree, (value) => {
        expectSameText(value);
        expectSameText(sortedCopy(value));
      }),
      { numRuns: 500 },
    );
  });

  it('for keys JavaScript orders as integers before the others, whatever the insertion order', () => {
    expectSameText({ 9: 'a', 10: 'b' });
    expectSameText({ a: 1, 10: 2, 9: 3, '': 4, '01': 5 });
    expectSameText(JSON.parse('{"9":1,"10":2,"b":[{"2":0,"10":1}],"a":null}'));
  });

  it('for a value nested deeper than any state, and for a value shared twice that is no cycle', () => {
    let deep: unknown = { a: 1 };
    for (let level = 0; level < 2000; level++) deep = level % 2 === 0 ? [deep] : { z: deep };
    expectSameText(deep);
    const shared = { a: 1 };
    expectSameText({ x: shared, y: [shared, shared] });
  });

  it('still rejects a cycle with a TypeError, through objects and arrays, at any depth', () => {
    const object: Record<string, unknown> = { a: 1 };
    object.self = object;
    const array: unknown[] = [1];
    array.push({ back: array });
    let chain: Record<string, unknown> = { end: true };
    const top = { start: chain };
    for (let level = 0; level < 300; level++) chain = chain.next = { level };
    chain.loop = top;
    for (const cyclic of [object, array, top, { sorted: { a: object } }]) {
      expect(() => canonicalJson(cyclic)).toThrow(TypeError);
      expect(() => prettyCanonicalJson(cyclic)).toThrow(TypeError);
    }
  });
});

describe('isSortedJsonData: the values canonicalJson writes with JSON.stringify', () => {
  const sorted = (value: unknown, depth = 64) => isSortedJsonData(value, depth);
  const withToJson = Object.assign([1], { toJSON: () => [] });

  it('takes plain data whose objects all have their keys in sorted order, at every level', () => {
    for (const value of ['text', 0, -1.5, NaN, true, false, null, undefined, [], {}, [1, 'a', true, null, undefined], { a: 1, b: 'x', c: [true, null, { d: undefined, e: [] }] }]) {
      expect(sorted(value), JSON.stringify(value) ?? String(value)).toBe(true);
    }
    expect(sorted(Object.assign(Object.create(null) as object, { a: 1, b: 2 }))).toBe(true);
    expect(sorted({ a: [{ b: 1, c: 2 }], d: { e: { f: 1 } } })).toBe(true);
  });

  it('refuses unsorted keys anywhere, what JSON writes otherwise, and values nested deeper than it looks', () => {
    for (const value of [{ b: 1, a: 2 }, { 9: 1, 10: 2 }, { '': 1, '10': 2, a: 3 }, [1, { b: 1, a: 1 }], { a: { c: 1, b: 2 } }, { a: 1, b: { d: 1, c: 1 } }, 1n, Symbol('s'), () => 1, [() => 1], { a: 1n }, new Date(0), new String('a'), new Uint8Array(1), new Map(), withToJson, { a: withToJson }]) {
      expect(sorted(value), String(typeof value)).toBe(false);
    }
    expect(sorted({ a: { b: 1 } }, 2)).toBe(true);
    expect(sorted({ a: { b: 1 } }, 1)).toBe(false);
    expect(sorted([[1]], 1)).toBe(false);
    expect(sorted([[]], 1)).toBe(false);
    expect(sorted('text', 0)).toBe(true);
    expect(sorted(null, 0)).toBe(true);
  });
});
