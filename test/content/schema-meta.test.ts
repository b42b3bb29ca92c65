import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import configSchema from '../../schemas/config.schema.json' with { type: 'json' };
import planSchema from '../../schemas/plan.schema.json' with { type: 'json' };
import postSchema from '../../schemas/post.schema.json' with { type: 'json' };
import stateSchema from '../../schemas/state.schema.json' with { type: 'json' };

// src/content/json-schema.ts and src/state/json-schema.ts compile these with validateSchema: false
// (no meta-schema compile on every run), so the meta-schema check happens here instead.
describe('postsync JSON Schemas', () => {
  it.each([
    ['post', postSchema],
    ['config', configSchema],
    ['state', stateSchema],
    ['plan', planSchema],
  ])('the %s schema is valid against the draft 2020-12 meta-schema', (_name, schema) => {
    const ajv = new Ajv2020({ strict: false });
    addFormats.default(ajv);
    expect(ajv.validateSchema(schema), JSON.stringify(ajv.errors)).toBe(true);
  });
});
