import { describe, expect, it } from 'vitest';
import { hasChanges } from '../../src/plan/has-changes.js';
import type { Change, MediaUpload } from '../../src/plan/types.js';
import { SHA_A, looseChange, planOf as plan } from '../helpers/fixtures.js';

function change(action: Change['action'], extra: Record<string, unknown> = {}): Change {
  return looseChange({ action, key: `${action}-post`, file: `posts/${action}-post.md`, postId: action === 'create' ? null : 'p1', details: [{ code: 'up-to-date' }], ...extra });
}

const upload: MediaUpload = { sha256: SHA_A, path: 'media/a.png', sizeBytes: 1, contentType: 'image/png', kind: 'image', usedBy: ['create-post'] };

describe('hasChanges: whether applying a plan would send or record anything (exit codes, `changes` output)', () => {
  it('is false for an empty plan and for one of noops and blocked posts only', () => {
    expect(hasChanges(plan([]))).toBe(false);
    expect(hasChanges(plan([change('noop'), change('blocked')]))).toBe(false);
  });

  it('is true as soon as one change is executed, whatever the others are', () => {
    for (const action of ['create', 'adopt', 'update', 'unschedule', 'delete', 'move'] as const) {
      expect(hasChanges(plan([change('noop'), change(action), change('blocked')])), action).toBe(true);
      expect(hasChanges(plan([change(action)])), action).toBe(true);
    }
  });

  it('is true for a state-only delete', () => {
    expect(hasChanges(plan([change('delete', { stateOnly: true })]))).toBe(true);
  });

  it('is true for a plan that only uploads media, even when every change is a noop', () => {
    expect(hasChanges(plan([change('noop')], [upload]))).toBe(true);
    expect(hasChanges(plan([], [upload]))).toBe(true);
  });
});
