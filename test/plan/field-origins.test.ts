import { describe, expect, it } from 'vitest';
import { fieldOrigins, sourcesOf } from '../../src/plan/field-origins.js';
import { createPlan } from '../../src/plan/planner.js';
import { desired, livePost, planInput, record, shape, state } from '../helpers/fixtures.js';

const origins = {
  digests: { file: 'd-file', 'snippet:snippets/footer.md': 'd-footer', 'var:launchDate': 'd-date' },
  fields: { content: ['file', 'snippet:snippets/footer.md'], scheduledAt: ['var:launchDate'] },
};
const post = { file: 'posts/launch.md', origins };

describe('fieldOrigins', () => {
  it('names, for each changed field, the sources whose digest moved since the record, and a source the record does not know', () => {
    const record = { sources: { file: 'd-file', 'snippet:snippets/footer.md': 'older', 'var:launchDate': 'd-date' } };
    expect(fieldOrigins([{ field: 'content', before: 'a', after: 'b' }, { field: 'scheduledAt', before: null, after: '2026-01-01T09:00:00.000Z' }], post, record)).toEqual([
      { field: 'content', source: { kind: 'snippet', path: 'snippets/footer.md' } },
    ]);
    expect(fieldOrigins([{ field: 'scheduledAt', before: null, after: '2026-01-01T09:00:00.000Z' }], post, { sources: { file: 'd-file' } })).toEqual([{ field: 'scheduledAt', source: { kind: 'var', name: 'launchDate' } }]);
  });

  it('takes a field no source names as made from the post file', () => {
    expect(fieldOrigins([{ field: 'media', before: [], after: ['x'] }], post, { sources: { file: 'older' } })).toEqual([{ field: 'media', source: { kind: 'file', path: 'posts/launch.md' } }]);
  });

  it('claims nothing when the record or the post keeps no sources', () => {
    const fields = [{ field: 'content', before: 'a', after: 'b' }];
    expect(fieldOrigins(fields, post, {})).toBeUndefined();
    expect(fieldOrigins(fields, { file: 'posts/launch.md' }, { sources: { file: 'older' } })).toBeUndefined();
  });
});

describe('sourcesOf', () => {
  it("hands the post's digests to the state record, and nothing for a post without origins", () => {
    expect(sourcesOf(post)).toEqual({ sources: origins.digests });
    expect(sourcesOf({})).toEqual({});
  });
});

describe('createPlan: where a file change came from', () => {
  const applied = shape({ content: 'Launch day' });
  const edited = { ...desired('launch', shape({ content: 'Launch day!' })), origins: { digests: { file: 'd-new' }, fields: {} } };

  it('names the sources of each changed field that moved since the last apply', () => {
    const owned = state({ posts: { launch: { ...record('p1', applied, 'posts/launch.md'), sources: { file: 'd-old' } } } });
    const [change] = createPlan(planInput({ desired: [edited], state: owned, live: [livePost('p1', applied)] })).changes;
    expect(change).toMatchObject({ action: 'update', reason: 'file-changed', sources: { file: 'd-new' }, origins: [{ field: 'content', source: { kind: 'file', path: 'posts/launch.md' } }] });
  });

  it('claims no origin for a record that keeps no sources (written before they were kept)', () => {
    const owned = state({ posts: { launch: record('p1', applied, 'posts/launch.md') } });
    const [change] = createPlan(planInput({ desired: [edited], state: owned, live: [livePost('p1', applied)] })).changes;
    expect(change).toMatchObject({ action: 'update', reason: 'file-changed' });
    expect(change).not.toHaveProperty('origins');
  });
});
