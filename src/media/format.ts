/** Numbers in media messages, precise enough that a found value never reads the same as its limit. */

const UNITS: Array<[string, number]> = [
  ['GiB', 1024 ** 3],
  ['MiB', 1024 ** 2],
  ['KiB', 1024],
];

function trimmed(value: number, digits: number): string {
  return String(Number(value.toFixed(digits)));
}

export function formatBytes(bytes: number): string {
  for (const [unit, scale] of UNITS) {
    if (bytes >= scale) return `${trimmed(bytes / scale, 1)} ${unit}`;
  }
  return `${bytes} bytes`;
}

export function formatSeconds(seconds: number, digits = 1): string {
  return `${trimmed(seconds, digits)} s`;
}

/**
 * Formats a found value and its limit. A value just past the limit (60.04 s vs 60 s, 8 MiB + 10
 * bytes vs 8 MiB) is shown with more digits, or in exact bytes, so the message never says "60 s
 * is too long; up to 60 s".
 */
export function formatAgainstLimit(kind: 'seconds' | 'bytes', found: number, limit: number): { found: string; limit: string } {
  if (kind === 'bytes') {
    const pair = { found: formatBytes(found), limit: formatBytes(limit) };
    if (pair.found !== pair.limit || found === limit) return pair;
    return { found: `${found.toLocaleString('en-US')} bytes`, limit: `${limit.toLocaleString('en-US')} bytes` };
  }
  const limitText = formatSeconds(limit, 3);
  for (const digits of [1, 2, 3]) {
    const foundText = formatSeconds(found, digits);
    if (foundText !== limitText) return { found: foundText, limit: limitText };
  }
  return { found: formatSeconds(found, 6), limit: limitText };
}

/** `a, b and c` (or `a, b or c`); `none` for an empty list. */
export function formatList(items: readonly string[], conjunction: 'and' | 'or' = 'and'): string {
  if (items.length === 0) return 'none';
  if (items.length === 1) return items[0]!;
  return `${items.slice(0, -1).join(', ')} ${conjunction} ${items[items.length - 1]}`;
}

export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}
