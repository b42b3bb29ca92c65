import { describe, expect, it } from 'vitest';
import { compileAllResponseSchemas, openApiDocument } from '../helpers/openapi.js';

/** The document itself: compilable, honest about its choices, and tolerant where clients must be. */

type Json = Record<string, unknown>;

/** Every `x-postsync-choice` value in the document, with the keys leading to it. */
function choices(node: unknown, at: string[] = []): { at: string[]; text: unknown }[] {
  if (!node || typeof node !== 'object') return [];
  return Object.entries(node as Json).flatMap(([key, value]) =>
    key === 'x-postsync-choice' ? [{ at, text: value }] : choices(value, [...at, key]),
  );
}

const schemas = (): Json => (openApiDocument().components as Json).schemas as Json;

describe('schemas/openapi.yaml', () => {
  it('compiles the schema of every documented response body and header', () => {
    expect(compileAllResponseSchemas()).toBeGreaterThan(100);
  });

  it('marks its choices with x-postsync-choice, each one sentence of text', () => {
    const found = choices(openApiDocument());
    expect(found.length).toBeGreaterThan(30);
    for (const { at, text } of found) {
      expect(typeof text, at.join(' ')).toBe('string');
      expect((text as string).trim().length, at.join(' ')).toBeGreaterThan(10);
    }
    const marked = new Set(found.map((choice) => choice.at.join(' ')));
    // Places the spec leaves "not shown" and the emulator fills in.
    for (const place of [
      'paths /auth/session get',
      'paths /accounts get',
      'paths /posts post',
      'paths /media/uploads post',
      'paths /media/{id}/complete post',
      'paths /analytics/posts get',
      'components schemas PostStatus',
      'components schemas TargetStatus',
      'components schemas Session',
      'components schemas AnalyticsItem',
      'components schemas CreatePostBody',
      'components schemas ErrorEnvelope properties error properties code',
      'components responses PayloadTooLarge',
    ]) {
      expect(marked.has(place), `${place} is marked`).toBe(true);
    }
  });

  it('keeps status and kind values open (no closed enum), since clients must pass unknown values through', () => {
    for (const name of ['PostStatus', 'TargetStatus', 'AccountStatus', 'Platform', 'MediaKind', 'Permission']) {
      const schema = schemas()[name] as Json;
      expect(schema.type, name).toBe('string');
      expect(schema.enum, name).toBeUndefined();
      expect(Array.isArray(schema.examples), `${name} lists its known values`).toBe(true);
    }
  });

  it('lets response objects carry additional properties', () => {
    for (const name of ['Post', 'Target', 'Media', 'Capabilities', 'Session', 'Account', 'AnalyticsItem', 'UploadTicket']) {
      const schema = schemas()[name] as Json;
      expect(schema.additionalProperties, name).not.toBe(false);
      expect(schema.unevaluatedProperties, name).not.toBe(false);
    }
  });
});
