import { isJsonObject } from './read-fields.js';
import type { OptionRule } from './types.js';

const KNOWN_TYPES: ReadonlySet<unknown> = new Set<OptionRule['type']>(['string', 'boolean', 'array']);

const isStringList = (value: unknown): boolean => Array.isArray(value) && value.every((item) => typeof item === 'string');
const isCount = (value: unknown): boolean => typeof value === 'number' && Number.isInteger(value) && value >= 0;

/** One entry in postsync's vocabulary: a known `type`, and every limit it has of the right kind. */
function isOptionRule(value: unknown): value is OptionRule {
  if (!isJsonObject(value) || !KNOWN_TYPES.has(value.type)) return false;
  return (value.values === undefined || isStringList(value.values))
    && (value.maxLength === undefined || isCount(value.maxLength))
    && (value.maxItems === undefined || isCount(value.maxItems))
    && (value.required === undefined || typeof value.required === 'boolean');
}

/**
 * `rules.options` of a capabilities answer when it is written in the vocabulary postsync knows
 * (one entry per option field, each `{ type, values?, maxLength?, maxItems?, required? }`);
 * otherwise null. The spec does not show the contents of `rules.options`, so options described
 * any other way (a list, schemas, other names) are not checked locally: the service judges them.
 * One entry postsync cannot read makes the whole object unknown, since its keys may not even be
 * field names, and a field it leaves out must not read as "not accepted".
 */
export function knownOptionRules(options: unknown): Record<string, OptionRule> | null {
  if (options === undefined || options === null) return {};
  if (!isJsonObject(options)) return null;
  return Object.values(options).every(isOptionRule) ? (options as Record<string, OptionRule>) : null;
}
