import type { ErrorObject, ValidateFunction } from 'ajv';
import type { Diagnostic } from '../diagnostics.js';
import { didYouMean } from './did-you-mean.js';
import { terminalText } from './terminal.js';
import type { DataPath, YamlSource } from './yaml-source.js';

export interface SchemaCheckContext {
  /** Project-relative file the data came from. */
  file: string;
  locate: YamlSource['locate'];
  /** Extra hint for an unknown field, tried before "did you mean" (e.g. why a field is not allowed). */
  unknownFieldHint?: (name: string, path: DataPath) => string | undefined;
}

export type SchemaCheck = (data: unknown, context: SchemaCheckContext) => Diagnostic[];

/**
 * A check returning one diagnostic per problem, each with its position, from a validator compiled
 * at build time (src/generated/content-validators.ts, `verbose`: each error carries its data and
 * parent schema, whose `x-expected` annotation says in words what a value should look like).
 */
export function schemaCheck(validate: ValidateFunction): SchemaCheck {
  return (data, context) => {
    if (validate(data)) return [];
    return (validate.errors ?? []).flatMap((error) => {
      const diagnostic = describeError(error, context);
      return diagnostic === undefined ? [] : [diagnostic];
    });
  };
}

function describeError(error: ErrorObject, context: SchemaCheckContext): Diagnostic | undefined {
  const path = pointerToPath(error.instancePath);
  const at = (target: DataPath, key = false) => ({ file: context.file, ...context.locate(target, { key }) });
  const field = formatPath(path);
  const expectedInWords = (error.parentSchema?.['x-expected'] as string | undefined) ?? undefined;
  const lastKey = path[path.length - 1];
  switch (error.keyword) {
    case 'additionalProperties': {
      const name = String(error.params.additionalProperty);
      const known = Object.keys((error.parentSchema?.properties as object | undefined) ?? {});
      return {
        severity: 'error',
        code: 'unknown-field',
        message: `unknown field \`${name}\`${path.length > 0 ? ` in \`${field}\`` : ''}`,
        ...at([...path, name], true),
        expected: known.length > 0 ? `one of ${known.map((k) => `\`${k}\``).join(', ')}` : 'no fields here',
        found: `\`${name}\``,
        hint: context.unknownFieldHint?.(name, path) ?? didYouMean(name, known) ?? 'Remove this field.',
      };
    }
    case 'required': {
      const name = String(error.params.missingProperty);
      return { severity: 'error', code: 'missing-field', message: `missing field \`${name}\` in \`${field || 'the document'}\``, ...at(path), expected: `a field \`${name}\``, hint: `Add \`${name}:\`.` };
    }
    case 'type':
      return {
        severity: 'error',
        code: 'wrong-type',
        message: `\`${field}\` has the wrong type`,
        ...at(path),
        expected: expectedInWords ?? describeTypes(error.params.type as string | string[]),
        found: describeValue(error.data),
        hint: typeHint(error.params.type as string | string[], error.data),
      };
    case 'maxItems':
      return {
        severity: 'error',
        code: lastKey === 'targets' ? 'too-many-targets' : lastKey === 'media' ? 'too-many-media' : 'too-many-items',
        message: `\`${field}\` has too many entries`,
        ...at(path),
        expected: `at most ${String(error.params.limit)}`,
        found: `${(error.data as unknown[]).length}`,
        hint: 'Split the post or remove entries.',
      };
    case 'maxLength':
      return {
        severity: 'error',
        code: lastKey === 'content' ? 'content-too-long' : 'too-long',
        message: `\`${field}\` is too long`,
        ...at(path),
        expected: `at most ${String(error.params.limit)} characters`,
        found: `${[...String(error.data)].length} characters`,
        hint: 'Shorten the text.',
      };
    case 'minLength':
      return { severity: 'error', code: 'empty-value', message: `\`${field}\` is empty`, ...at(path), expected: expectedInWords ?? 'a non-empty text', found: 'an empty text', hint: 'Write a value or remove the field.' };
    case 'pattern':
      return patternDiagnostic(error, path, context, expectedInWords);
    case 'propertyNames':
      // Ajv reports the failing name's own error (pattern) separately; that one carries the detail.
      return undefined;
    default:
      return { severity: 'error', code: 'invalid-value', message: `\`${field || 'the document'}\` ${error.message ?? 'is invalid'}`, ...at(path), expected: expectedInWords, found: describeValue(error.data), hint: 'Correct the value.' };
  }
}

function patternDiagnostic(error: ErrorObject, path: DataPath, context: SchemaCheckContext, expected: string | undefined): Diagnostic {
  const propertyName = error.propertyName;
  if (propertyName !== undefined) {
    return {
      severity: 'error',
      code: 'invalid-key',
      message: `\`${propertyName}\` is not a valid name in \`${formatPath(path)}\``,
      file: context.file,
      ...context.locate([...path, propertyName], { key: true }),
      expected,
      found: `\`${propertyName}\``,
      hint: 'Rename it.',
    };
  }
  return { severity: 'error', code: 'invalid-value', message: `\`${formatPath(path)}\` is not valid`, file: context.file, ...context.locate(path), expected, found: describeValue(error.data), hint: expected === undefined ? 'Correct the value.' : `Write ${expected}.` };
}

export function pointerToPath(pointer: string): (string | number)[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((part) => (/^(0|[1-9]\d*)$/.test(part) ? Number(part) : part));
}

/** `targets[1].options.vidATags` */
export function formatPath(path: DataPath): string {
  return path.map((segment, index) => (typeof segment === 'number' ? `[${segment}]` : index === 0 ? segment : `.${segment}`)).join('');
}

const TYPE_WORDS: Record<string, string> = {
  string: 'a text',
  boolean: 'true or false',
  array: 'a list',
  object: 'a mapping (key: value lines)',
  null: 'null',
  number: 'a number',
  integer: 'a whole number',
};

function describeTypes(types: string | string[]): string {
  return (Array.isArray(types) ? types : types.split(',')).map((type) => TYPE_WORDS[type] ?? type).join(' or ');
}

/** A short, safe rendering of a found value (texts are cut to keep messages to one line). */
export function describeValue(value: unknown): string {
  if (value === null || value === undefined) return 'nothing (an empty value)';
  if (typeof value === 'string') return `the text ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === 'number' || typeof value === 'boolean') return `the ${typeof value} ${String(value)}`;
  if (Array.isArray(value)) return `a list of ${value.length}`;
  return 'a mapping';
}

function typeHint(types: string | string[], found: unknown): string | undefined {
  const wanted = Array.isArray(types) ? types : types.split(',');
  if (wanted.includes('string') && (typeof found === 'number' || typeof found === 'boolean')) return 'Put the value in quotes to make it a text.';
  if (wanted.includes('boolean') && typeof found === 'string') return 'Write `true` or `false` (without quotes).';
  if (wanted.includes('array') && !Array.isArray(found)) return 'Write a list: one `- item` per line.';
  return undefined;
}

/**
 * One line per schema violation, e.g. `/targets/x/posts/a: must have required property 'postId'`.
 * Paths and names come from the file (a pull request can write a key with a line break or ESC):
 * each line is written by the terminal rule, so it stays one line and controls show as escapes.
 */
export function describeSchemaErrors(errors: readonly ErrorObject[] | null | undefined, limit = 10): string[] {
  const lines = (errors ?? []).map((error) => {
    const where = error.instancePath === '' ? '(top level)' : error.instancePath;
    const extra =
      error.keyword === 'additionalProperties'
        ? ` ('${String((error.params as { additionalProperty?: unknown }).additionalProperty)}')`
        : '';
    return terminalText(`${where}: ${error.message ?? 'is invalid'}${extra}`);
  });
  const unique = [...new Set(lines)];
  return unique.length > limit ? [...unique.slice(0, limit), `… and ${unique.length - limit} more`] : unique;
}
