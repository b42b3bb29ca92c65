import { PostsyncError } from '../errors.js';

/**
 * Reading the `data` of a success answer tolerantly: unknown fields and values are data, and a
 * field postsync truly needs that is missing (or of another type) is a `ResponseShapeError` that
 * names the endpoint and the field, never a TypeError further down.
 */

/** A 2xx answer without a field postsync needs. */
export class ResponseShapeError extends PostsyncError {
  constructor(endpoint: string, field: string, found: unknown, expected = 'missing') {
    super(`${endpoint}: field \`${field}\` ${expected} (found: ${describeFound(found)})`, {
      hint: 'The API answered in a shape postsync cannot read. Check that api.url / POSTSYNC_API_URL points at the Public Posting API; if it does, report this message.',
    });
  }
}

export type JsonObject = Record<string, unknown>;

export const isJsonObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The value at a dotted path (`project.id`), or undefined when any step is not an object. */
export function valueAt(data: unknown, path: string): unknown {
  let value = data;
  for (const step of path.split('.')) {
    if (!isJsonObject(value)) return undefined;
    value = value[step];
  }
  return value;
}

/** The first of `paths` (names the service may use for one field) that holds a value, or undefined. */
export function firstValue(data: unknown, paths: readonly string[]): unknown {
  for (const path of paths) {
    const value = valueAt(data, path);
    if (value !== undefined && value !== null) return value;
  }
  return undefined;
}

/**
 * The non-empty string at the first of `paths`; otherwise a `ResponseShapeError` naming the first
 * path (postsync's own name for the field).
 */
export function requiredString(endpoint: string, data: unknown, paths: readonly string[]): string {
  const value = firstValue(data, paths);
  if (typeof value === 'string' && value !== '') return value;
  throw new ResponseShapeError(endpoint, paths[0]!, value === undefined ? data : value, value === undefined ? 'missing' : 'is not a text');
}

/** The array at `path`; otherwise a `ResponseShapeError`. */
export function requiredArray(endpoint: string, data: unknown, path: string): unknown[] {
  const value = valueAt(data, path);
  if (Array.isArray(value)) return value;
  throw new ResponseShapeError(endpoint, path, value === undefined ? parentOf(data, path) : value, value === undefined ? 'missing' : 'is not a list');
}

/** The deepest object on the way to `path` (what the answer had instead of the field). */
function parentOf(data: unknown, path: string): unknown {
  const steps = path.split('.');
  for (let length = steps.length - 1; length > 0; length -= 1) {
    const value = valueAt(data, steps.slice(0, length).join('.'));
    if (value !== undefined) return value;
  }
  return data;
}

/** The object at `path`; otherwise a `ResponseShapeError`. */
export function requiredObject(endpoint: string, data: unknown, path: string): JsonObject {
  const value = valueAt(data, path);
  if (isJsonObject(value)) return value;
  throw new ResponseShapeError(endpoint, path, value === undefined ? parentOf(data, path) : value, value === undefined ? 'missing' : 'is not an object');
}

/** The JSON type a field must have when it is there (null counts as not there). */
export type FieldType = 'text' | 'number' | 'boolean' | 'object';

const hasType = (value: unknown, type: FieldType): boolean =>
  type === 'text' ? typeof value === 'string' : type === 'number' ? typeof value === 'number' : type === 'boolean' ? typeof value === 'boolean' : isJsonObject(value);

/**
 * An object of an answer (a post, a target, an account; `where` names it, e.g. `items[3]`) checked
 * for what its readers rely on, so that a wrong type is a `ResponseShapeError` here and never a
 * TypeError further down (or a value written into the state): every `required` field is there
 * (and not an empty text), and every field of `fields` that is there has its type. Unknown
 * fields, and unknown values of a known type, stay data.
 */
export function checkedObject(endpoint: string, data: unknown, where: Where, shape: { required?: readonly string[]; fields: Readonly<Record<string, FieldType>> }): JsonObject {
  if (!isJsonObject(data)) throw new ResponseShapeError(endpoint, placeOf(where) || 'data', data, 'is not an object');
  for (const field of shape.required ?? []) {
    const value = data[field];
    if (value === undefined || value === null || value === '') throw new ResponseShapeError(endpoint, fieldName(where, field), value ?? data, value === '' ? 'is empty' : 'missing');
  }
  for (const field in shape.fields) {
    const value = data[field];
    const type = shape.fields[field]!;
    if (!fits(value, type)) throw wrongType(endpoint, fieldName(where, field), value, type);
  }
  return data;
}

/**
 * Where an object sits in an answer (`items[3]`, '' for `data` itself), or a function that names
 * it: the name is worked out only for an error, as a listing checks thousands of objects.
 */
export type Where = string | (() => string);

const placeOf = (where: Where): string => (typeof where === 'string' ? where : where());

/** The name of `field` of the object at `where`: `items[3].targets`. */
export function fieldName(where: Where, field: string): string {
  const place = placeOf(where);
  return place === '' ? field : `${place}.${field}`;
}

/** Whether a field's `value` may be read as `type`: left out (or null), or of that type. */
const fits = (value: unknown, type: FieldType): boolean => value === undefined || value === null || hasType(value, type);

const wrongType = (endpoint: string, field: string, value: unknown, type: FieldType) => new ResponseShapeError(endpoint, field, value, `is not ${type === 'object' ? 'an object' : `a ${type}`}`);

/** `value`, unless it is there (not null) with another type than `type`: then a `ResponseShapeError` naming `field`. */
export function checkedValue(endpoint: string, field: string, value: unknown, type: FieldType): unknown {
  if (!fits(value, type)) throw wrongType(endpoint, field, value, type);
  return value;
}

const FOUND_LIMIT = 80;

/** What was there instead, without values (an answer may carry anything): field names or a type. */
function describeFound(found: unknown): string {
  if (isJsonObject(found)) {
    const names = Object.keys(found).join(', ');
    if (names === '') return 'an empty object';
    return names.length > FOUND_LIMIT ? `${names.slice(0, FOUND_LIMIT)}…` : names;
  }
  if (Array.isArray(found)) return `a list of ${found.length}`;
  if (found === null) return 'null';
  return found === undefined ? 'nothing' : `a ${typeof found}`;
}
