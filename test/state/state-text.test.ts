import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { prettyCanonicalJson } from '../../src/state/hash.js';
import { shapeHash } from '../../src/content/shape-hash.js';
import { StateFileText } from '../../src/state/state-text.js';
import type { PostRecord, StateFile, ProjectState } from '../../src/state/types.js';

const text = fc.string({ unit: 'binary', maxLength: 12 });
const record: fc.Arbitrary<PostRecord> = fc.record({ postId: fc.uuid(), file: text, appliedHash: text, remoteUpdatedAt: text, appliedAt: text });
const section: fc.Arbitrary<ProjectState> = fc.record({
  apiUrl: text,
  projectId: text,
  posts: fc.dictionary(text, record, { maxKeys: 8 }),
  media: fc.dictionary(text, fc.record({ mediaId: fc.uuid(), sizeBytes: fc.nat(), contentType: text, uploadedAt: text }), { maxKeys: 3 }),
  pending: fc.dictionary(
    text,
    fc.record({ file: text, idempotencyKey: text, payload: fc.record({ content: text, targets: fc.constant([]), mediaIds: fc.array(text, { maxLength: 2 }) }), shapeHash: text, startedAt: text }),
    { maxKeys: 2 },
  ),
  uploads: fc.constant({}),
});
const stateFile: fc.Arbitrary<StateFile> = fc.record({ version: fc.constant(1 as const), targets: fc.dictionary(text, section, { maxKeys: 3 }) });

describe('StateFileText', () => {
  it('renders exactly prettyCanonicalJson, also after records are replaced, added and removed', () => {
    fc.assert(
      fc.property(stateFile, fc.array(fc.tuple(text, fc.option(record, { nil: undefined })), { maxLength: 6 }), (file, edits) => {
        const renderer = new StateFileText();
        expect(renderer.render(file)).toBe(prettyCanonicalJson(file));
        const first = Object.values(file.targets)[0];
        if (first === undefined) return;
        for (const [key, next] of edits) {
          if (next === undefined) delete first.posts[key];
          else first.posts[key] = next;
          expect(renderer.render(file)).toBe(prettyCanonicalJson(file));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('escapes keys like the canonical serializer: quotes, control characters, lone surrogates', () => {
    const at = '2026-01-01T00:00:00.000Z';
    const posts = Object.fromEntries(['a"b', 'tab\there', '\u0000nul', 'lone\ud800', 'emoji😀', 'é'].map((key, i) => [key, { postId: `p${i}`, file: key, appliedHash: 'h', remoteUpdatedAt: at, appliedAt: at }]));
    const file: StateFile = { version: 1, targets: { 'https://api.example.com#acme': { apiUrl: 'u', projectId: 'acme', posts, media: {}, pending: {}, uploads: {} }, 'local:demo': { apiUrl: 'local', projectId: 'demo', posts: {}, media: {}, pending: {}, uploads: {} } } };
    expect(new StateFileText().render(file)).toBe(prettyCanonicalJson(file));
  });
});
