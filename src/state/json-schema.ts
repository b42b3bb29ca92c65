import type { ErrorObject } from 'ajv';

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
