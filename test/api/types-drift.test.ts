import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { WIRE_TYPE_FIELDS } from '../../src/api/type-fields.js';

type Schema = { $ref?: string; properties?: Record<string, unknown>; required?: string[]; allOf?: Schema[] };

const doc = parse(readFileSync(new URL('../../schemas/openapi.yaml', import.meta.url), 'utf8')) as { components: { schemas: Record<string, Schema> } };

function resolve(schema: Schema): Schema {
  if (!schema.$ref) return schema;
  const name = schema.$ref.replace('#/components/schemas/', '');
  const target = doc.components.schemas[name];
  if (!target) throw new Error(`unresolved ${schema.$ref}`);
  return resolve(target);
}

/** Property names and required names of a schema, through `allOf` and `$ref`. */
function shape(schema: Schema): { all: Set<string>; required: Set<string> } {
  const resolved = resolve(schema);
  const all = new Set(Object.keys(resolved.properties ?? {}));
  const required = new Set(resolved.required ?? []);
  for (const part of resolved.allOf ?? []) {
    const inner = shape(part);
    inner.all.forEach((name) => all.add(name));
    inner.required.forEach((name) => required.add(name));
  }
  return { all, required };
}

describe('the wire types in src/api/types.ts match schemas/openapi.yaml', () => {
  it.each(Object.entries(WIRE_TYPE_FIELDS))('%s has the same properties and required properties', (name, fields) => {
    const schema = doc.components.schemas[name];
    expect(schema, `components.schemas.${name}`).toBeDefined();
    const { all, required } = shape(schema as Schema);
    expect([...fields.all].sort()).toEqual([...all].sort());
    expect([...fields.required].sort()).toEqual([...required].sort());
  });
});
