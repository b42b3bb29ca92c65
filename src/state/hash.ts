import { hash } from 'node:crypto';
import stringify from 'safe-stable-stringify';

/**
 * Deterministic JSON: object keys sorted, `undefined` properties dropped, circular structures
 * rejected. Two values that mean the same produce the same text, which is what every hash
 * (applied hash, state hash, Idempotency-Key) relies on: the text must never change for a value.
 */
const stable = stringify.configure({ deterministic: true, circularValue: TypeError });

/**
 * How deep `canonicalJson` looks for sorted data (`isSortedJsonData`) before it gives up. A cycle
 * (or a value this deep) is then written by `stable`, which rejects the cycle; state and payloads
 * are far shallower.
 */
const SORTED_DEPTH_LIMIT = 64;

/**
 * Whether `JSON.stringify(value)` is already the text `stable` writes, which it is when the value
 * is plain data (strings, finite or not numbers, booleans, null, undefined, arrays, objects of
 * Object.prototype or none) with no `toJSON`, and every object's own keys come in sorted order:
 * JSON.stringify writes keys in `Object.keys` order, `stable` in sorted order, and both escape
 * strings, write numbers and drop or null `undefined` the same way. Integer-like keys ("9" before
 * "10") are not in sorted order, so such objects go to `stable`. Looks `depth` levels down at most:
 * a value nested deeper is not taken.
 */
export function isSortedJsonData(value: unknown, depth: number): boolean {
  if (typeof value !== 'object') return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' || value === undefined;
  if (value === null) return true;
  if (depth === 0 || typeof (value as { toJSON?: unknown }).toJSON === 'function') return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (prototype === Array.prototype) {
    const array = value as unknown[];
    for (let index = 0; index < array.length; index++) if (!isSortedJsonData(array[index], depth - 1)) return false;
    return true;
  }
  if (prototype !== Object.prototype && prototype !== null) return false;
  const keys = Object.keys(value);
  // The keys first, so that an unsorted object is found before its values are walked.
  for (let index = 1; index < keys.length; index++) if (!((keys[index - 1] as string) < (keys[index] as string))) return false;
  for (const key of keys) if (!isSortedJsonData((value as Record<string, unknown>)[key], depth - 1)) return false;
  return true;
}

function write(value: unknown, indent: number): string {
  const sorted = isSortedJsonData(value, SORTED_DEPTH_LIMIT);
  const text: string | undefined = sorted ? JSON.stringify(value, null, indent) : stable(value, null, indent);
  if (text === undefined) throw new TypeError(`cannot serialize ${typeof value} as JSON`);
  return text;
}

export function canonicalJson(value: unknown): string {
  return write(value, 0);
}

/** Canonical JSON indented by two spaces with a trailing newline: for files committed to git. */
export function prettyCanonicalJson(value: unknown): string {
  return `${write(value, 2)}\n`;
}

export function sha256Hex(text: string): string {
  return hash('sha256', text, 'hex');
}
