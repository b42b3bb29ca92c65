import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

const compiled = new WeakMap<object, ValidateFunction>();
let ajv: Ajv2020 | undefined;

/**
 * A validator for one of the package's own JSON Schemas (draft 2020-12, imported as JSON),
 * compiled on first use so commands that never read state or plans pay nothing.
 */
export function validatorFor(schema: object): ValidateFunction {
  const cached = compiled.get(schema);
  if (cached) return cached;
  if (!ajv) {
    // strictRequired rejects `required` in if/then branches, whose properties are declared one level up.
    // No meta-schema check at run time (~70 ms per process): a test checks these fixed files.
    ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false, logger: false, validateSchema: false });
    addFormats.default(ajv);
  }
  const validate = ajv.compile(schema);
  compiled.set(schema, validate);
  return validate;
}

/** One line per schema violation, e.g. `/targets/x/posts/a: must have required property 'postId'`. */
export function describeSchemaErrors(errors: readonly ErrorObject[] | null | undefined, limit = 10): string[] {
  const lines = (errors ?? []).map((error) => {
    const where = error.instancePath === '' ? '(top level)' : error.instancePath;
    const extra =
      error.keyword === 'additionalProperties'
        ? ` ('${String((error.params as { additionalProperty?: unknown }).additionalProperty)}')`
        : '';
    return `${where}: ${error.message ?? 'is invalid'}${extra}`;
  });
  const unique = [...new Set(lines)];
  return unique.length > limit ? [...unique.slice(0, limit), `… and ${unique.length - limit} more`] : unique;
}
