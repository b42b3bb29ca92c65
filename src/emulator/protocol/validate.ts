import { validationFailed } from './envelope.js';

/** Collects every violated rule of one request, so a 400 lists them all at once. */
export class Violations {
  readonly messages: string[] = [];

  add(message: string): void {
    this.messages.push(message);
  }

  get any(): boolean {
    return this.messages.length > 0;
  }

  throwIfAny(): void {
    if (this.any) throw validationFailed(this.messages);
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-](\d{2}):(\d{2}))$/;

/**
 * Parses an RFC 3339 date-time that carries `Z` or a numeric offset; anything else (no offset,
 * a date only, 2026-02-30) is null. Returns epoch milliseconds.
 */
export function parseRfc3339(text: string): number | null {
  const m = RFC3339.exec(text);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return null;
  if (day < 1 || day > new Date(Date.UTC(year, month, 0)).getUTCDate()) return null;
  if (m[9] !== undefined && (Number(m[9]) > 23 || Number(m[10]) > 59)) return null;
  const ms = Date.parse(text.toUpperCase());
  return Number.isNaN(ms) ? null : ms;
}

/** Length in Unicode code points: the "characters" of the spec's limits. */
export function codePointLength(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    count++;
  }
  return count;
}

/** Reports fields of `value` that are not in `allowed`. */
export function rejectUnknownFields(value: Record<string, unknown>, allowed: readonly string[], where: string, violations: Violations): void {
  for (const field of Object.keys(value)) {
    if (!allowed.includes(field)) violations.add(`${where}${field} is not a known field (allowed: ${allowed.join(', ')})`);
  }
}

/** Parses an integer query parameter within bounds, reporting a violation otherwise. */
export function integerParam(raw: string | null, name: string, bounds: { min: number; max: number; fallback: number }, violations: Violations): number {
  if (raw === null) return bounds.fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < bounds.min || Number(raw) > bounds.max) {
    violations.add(`${name} must be an integer from ${bounds.min} to ${bounds.max}`);
    return bounds.fallback;
  }
  return Number(raw);
}

/**
 * A `platform` filter. The spec leaves platform values open, so any name is a valid filter (it
 * matches the targets on accounts of that platform, maybe none); only an empty or oversized value
 * is refused.
 */
export function platformParam(raw: string | null, violations: Violations): string | null {
  if (raw !== null && (raw.length === 0 || raw.length > 100)) violations.add('platform must be 1 to 100 characters');
  return raw;
}

/** Rejects query parameters the endpoint does not define, and repeated ones. */
export function checkQueryNames(query: URLSearchParams, allowed: readonly string[], violations: Violations): void {
  const seen = new Set<string>();
  for (const name of query.keys()) {
    if (!allowed.includes(name)) violations.add(`unknown query parameter ${name} (allowed: ${allowed.join(', ')})`);
    else if (seen.has(name)) violations.add(`query parameter ${name} is repeated`);
    seen.add(name);
  }
}
