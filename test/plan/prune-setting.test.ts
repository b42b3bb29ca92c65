import { describe, expect, it } from 'vitest';
import { pruneHeader, pruneSetting } from '../../src/plan/prune-setting.js';

describe('pruneSetting: what decides whether removed files\' posts are deleted', () => {
  it('a flag wins over postsync.yaml, which wins over the default (off)', () => {
    expect(pruneSetting({ flag: true, config: false })).toEqual({ on: true, from: 'flag' });
    expect(pruneSetting({ flag: false, config: true })).toEqual({ on: false, from: 'flag' });
    expect(pruneSetting({ flag: undefined, config: true })).toEqual({ on: true, from: 'config' });
    expect(pruneSetting({ flag: undefined, config: false })).toEqual({ on: false, from: 'default' });
  });

  it('says in the plan header what decided, and nothing for the default', () => {
    expect(pruneHeader({ on: false, from: 'default' }, { config: false })).toBeNull();
    expect(pruneHeader({ on: true, from: 'config' }, { config: true })).toBe('prune: on, from postsync.yaml');
    expect(pruneHeader({ on: true, from: 'flag' }, { config: false })).toBe('prune: on, from --prune');
    expect(pruneHeader({ on: false, from: 'flag' }, { config: true })).toBe('prune: off, --no-prune overrides postsync.yaml');
    expect(pruneHeader({ on: false, from: 'flag' }, { config: false })).toBe('prune: off, from --no-prune');
  });
});
