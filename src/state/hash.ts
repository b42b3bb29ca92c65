import { hash } from 'node:crypto';
import stringify from 'safe-stable-stringify';

/**
 * Deterministic JSON: object keys sorted, `undefined` properties dropped, circular structures
 * rejected. Two values that mean the same produce the same text, which is what every hash
 * (applied hash, state hash, Idempotency-Key) relies on.
 */
const stable = stringify.configure({ deterministic: true, circularValue: TypeError });

export function canonicalJson(value: unknown): string {
  const text = stable(value);
  if (text === undefined) throw new TypeError(`cannot serialize ${typeof value} as JSON`);
  return text;
}

/** Canonical JSON indented by two spaces with a trailing newline: for files committed to git. */
export function prettyCanonicalJson(value: unknown): string {
  const text = stable(value, null, 2);
  if (text === undefined) throw new TypeError(`cannot serialize ${typeof value} as JSON`);
  return `${text}\n`;
}

export function sha256Hex(text: string): string {
  return hash('sha256', text, 'hex');
}
