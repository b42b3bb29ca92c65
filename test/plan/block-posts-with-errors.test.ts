import { describe, expect, it } from 'vitest';
import type { InvalidFile } from '../../src/content/types.js';
import type { Diagnostic } from '../../src/diagnostics.js';
import { blockPostsWithErrors, blockedByErrors, heldByRules, type PostErrorsContext } from '../../src/plan/posts-with-errors.js';
import type { Change } from '../../src/plan/types.js';
import { looseChange, record, shape, state } from '../helpers/fixtures.js';

// The rule of posts-with-errors.ts, on hand-made changes (test/plan/posts-with-errors.test.ts runs it through planPosts).

function error(file: string | undefined, message = 'something is wrong', extra: Partial<Diagnostic> = {}): Diagnostic {
  return { severity: 'error', code: 'test-error', message, ...(file === undefined ? {} : { file }), ...extra };
}

function change(action: Change['action'], key: string, extra: Record<string, unknown> = {}): Change {
  return looseChange({ action, key, file: `posts/${key}.md`, postId: action === 'create' ? null : `p-${key}`, details: [{ code: 'up-to-date' }], ...extra });
}

function context(overrides: Partial<PostErrorsContext> & { files?: string[] } = {}): PostErrorsContext {
  const { files = [], ...rest } = overrides;
  const invalidFiles = rest.invalidFiles ?? [];
  return {
    diagnostics: [],
    invalidFiles,
    postKeys: new Set(files.map((file) => file.replace(/^posts\/|\.md$/g, ''))),
    postFiles: new Set([...files, ...invalidFiles.map((invalid) => invalid.file), ...(rest.held ?? []).map((post) => post.file)]),
    held: [],
    state: state(),
    ...rest,
  };
}

const summary = (changes: readonly Change[]) => changes.map((c) => `${c.action} ${c.key}`);

describe('blockPostsWithErrors: what a blocked post says, and what errors block', () => {
  it('never blocks for a warning, even while another file has errors', () => {
    const warning: Diagnostic = { severity: 'warning', code: 'w', message: 'not ready', file: 'posts/a.md' };
    const result = blockPostsWithErrors([change('create', 'a'), change('create', 'b')], context({ files: ['posts/a.md', 'posts/b.md'], diagnostics: [warning, error('posts/b.md')] }));
    expect(summary(result)).toEqual(['create a', 'blocked b']);
  });

  it('says for each action what is held back until the file is fixed', () => {
    const files = ['posts/c.md', 'posts/u.md', 'posts/m.md', 'posts/d.md', 'posts/r.md', 'posts/n.md'];
    const changes = [change('create', 'c'), change('update', 'u'), change('move', 'm'), change('delete', 'd'), change('unschedule', 'r'), change('noop', 'n')];
    const result = blockPostsWithErrors(changes, context({ files, diagnostics: files.map((file) => error(file, `bad ${file}`)) }));
    const held = (key: string, action: string) => [{ code: 'file-errors', file: `posts/${key}.md`, message: `bad posts/${key}.md`, count: 1 }, { code: 'held-back', action }];
    expect(result.map((c) => c.details)).toEqual([
      held('c', 'create'),
      held('u', 'update'),
      held('m', 'move'),
      held('d', 'delete'),
      held('r', 'unschedule'),
      held('n', 'noop'),
    ]);
    expect(result.every((c) => c.action === 'blocked')).toBe(true);
  });

  it('names the first error and counts the others', () => {
    const result = blockPostsWithErrors([change('create', 'a')], context({ files: ['posts/a.md'], diagnostics: [error('posts/a.md', 'first'), error('posts/a.md', 'second'), error('posts/a.md', 'third')] }));
    expect(result[0]!.details[0]).toEqual({ code: 'file-errors', file: 'posts/a.md', message: 'first', count: 3 });
    const two = blockPostsWithErrors([change('create', 'a')], context({ files: ['posts/a.md'], diagnostics: [error('posts/a.md', 'first'), error('posts/a.md', 'second')] }));
    expect(two[0]!.details[0]).toEqual({ code: 'file-errors', file: 'posts/a.md', message: 'first', count: 2 });
  });

  it('keeps the details of a change that was blocked already (a past time), after its file\'s errors', () => {
    const inPast = { code: 'scheduled-in-past', scheduledAt: '2026-01-01T00:00:00.000Z', timezone: 'UTC' };
    const past = change('blocked', 'a', { details: [inPast] });
    const result = blockPostsWithErrors([past], context({ files: ['posts/a.md'], diagnostics: [error('posts/a.md', 'bad')] }));
    expect(result[0]!.details).toEqual([{ code: 'file-errors', file: 'posts/a.md', message: 'bad', count: 1 }, { code: 'held-back', action: 'blocked' }, inPast]);
  });

  it('pairs a change with no file of its own with the file its state record names', () => {
    const section = state({ posts: { gone: record('p1', shape(), 'posts/old.md') } });
    const result = blockPostsWithErrors([change('delete', 'gone', { file: null })], context({ files: [], state: section, diagnostics: [error('posts/old.md', 'bad')], postFiles: new Set(['posts/old.md']) }));
    expect(result[0]).toMatchObject({ action: 'blocked', diagnostics: [error('posts/old.md', 'bad')] });
  });

  it('pairs the old side of a move with the file its state record names', () => {
    const section = state({ posts: { old: record('p1', shape(), 'posts/old.md') } });
    const move = change('move', 'new', { fromKey: 'old' });
    const result = blockPostsWithErrors([move], context({ files: ['posts/new.md'], state: section, diagnostics: [error('posts/old.md', 'bad')], postFiles: new Set(['posts/new.md', 'posts/old.md']) }));
    expect(result[0]).toMatchObject({ action: 'blocked', key: 'new', fromKey: 'old' });
  });

  it('leaves noops and blocked posts as they are when the project has errors: they send nothing', () => {
    const unchanged = [change('noop', 'n'), change('blocked', 'b')];
    const result = blockPostsWithErrors(unchanged, context({ files: ['posts/n.md', 'posts/b.md'], diagnostics: [error(undefined, 'postsync.yaml is broken')] }));
    expect(result).toEqual(unchanged);
  });

  it('names the project when a project error has no file, and counts several', () => {
    const one = blockPostsWithErrors([change('create', 'a')], context({ files: ['posts/a.md'], diagnostics: [error(undefined, 'no config')] }));
    expect(one[0]!.details).toEqual([{ code: 'project-errors', where: [null], message: 'no config', count: 1 }, { code: 'up-to-date' }]);
    const two = blockPostsWithErrors([change('create', 'a')], context({ files: ['posts/a.md'], diagnostics: [error(undefined, 'no config'), error('posts', 'no folder')] }));
    expect(two[0]!.details[0]).toEqual({ code: 'project-errors', where: [null, 'posts'], message: 'no config', count: 2 });
    expect(two[0]!.diagnostics).toHaveLength(2);
  });

  it('deletes nothing while several files cannot be read, and says so', () => {
    const unreadable: InvalidFile[] = [{ file: 'posts/x.md', key: 'x', readable: false }, { file: 'posts/y.md', key: 'y', readable: false }];
    const result = blockPostsWithErrors([change('delete', 'gone', { file: null })], context({ invalidFiles: unreadable, diagnostics: [error('posts/x.md', 'bad x'), error('posts/y.md', 'bad y')] }));
    expect(result[0]).toMatchObject({ action: 'blocked', key: 'gone', diagnostics: [error('posts/x.md', 'bad x'), error('posts/y.md', 'bad y')] });
    expect(result[0]!.details).toEqual([{ code: 'unreadable-file', gone: 'gone', files: ['posts/x.md', 'posts/y.md'] }]);
  });

  it('gives a file\'s own blocked change only the files with errors about it', () => {
    // b.md holds back one post of its own (another key); a.md yields no post under `launch`.
    const invalid: InvalidFile[] = [{ file: 'posts/a.md', key: 'launch', readable: true }];
    const result = blockPostsWithErrors([], context({ invalidFiles: invalid, held: [{ file: 'posts/b.md', key: 'launch' }], diagnostics: [error('posts/a.md', 'bad a'), error('posts/b.md', 'bad b', { key: 'other' })] }));
    expect(result).toHaveLength(1);
    expect(result[0]).toMatchObject({ action: 'blocked', key: 'launch', file: 'posts/a.md', postId: null, diagnostics: [error('posts/a.md', 'bad a')] });
    expect(result[0]!.details).toEqual([{ code: 'file-errors', file: 'posts/a.md', message: 'bad a', count: 1 }, { code: 'held-back', action: 'create' }]);
  });
});

describe('blockedByErrors: the changes blocked because a file has errors', () => {
  it('lists blocked changes that carry errors, not posts blocked for another reason nor other actions', () => {
    const byErrors = change('blocked', 'a', { diagnostics: [error('posts/a.md')] });
    const past = change('blocked', 'b');
    const withDiagnostics = change('create', 'c', { diagnostics: [error('posts/c.md')] });
    expect(blockedByErrors({ changes: [change('noop', 'n'), byErrors, past, withDiagnostics] })).toEqual([byErrors]);
    expect(blockedByErrors({ changes: [] })).toEqual([]);
  });
});

describe('blockPostsWithErrors and heldByRules: a valid post a rule holds back', () => {
  it('holds it by the rule: says whether it would be created, whether the rule is named, and keeps what it was blocked for already', () => {
    const quiet = error('posts/w.md', 'rule `nights`: in quiet hours', { code: 'rule-quiet-hours', key: 'w' });
    const noSlot = error('posts/u.md', 'no free slot', { code: 'slot-none', key: 'u' });
    const past = { code: 'scheduled-in-past', scheduledAt: '2026-01-01T00:00:00.000Z', timezone: 'UTC' };
    // A held post yields no post: an owned one reads as removed (unschedule) until the rule lets it go.
    const changes = [change('unschedule', 'u'), change('blocked', 'v', { reason: 'scheduled-in-past', details: [past] })];
    const pastTime = error('posts/v.md', 'no free slot', { code: 'slot-none', key: 'v' });
    const result = blockPostsWithErrors(changes, context({
      held: [{ key: 'w', file: 'posts/w.md' }, { key: 'u', file: 'posts/u.md' }, { key: 'v', file: 'posts/v.md' }],
      diagnostics: [quiet, noSlot, pastTime],
    }));
    expect(result.map((each) => [each.key, each.action, each.reason, each.details])).toEqual([
      ['u', 'blocked', 'held-by-rule', [{ code: 'held-by-rule', message: 'no free slot', count: 1, namesRule: false }, { code: 'rule-wait', create: false }]],
      ['v', 'blocked', 'held-by-rule', [{ code: 'held-by-rule', message: 'no free slot', count: 1, namesRule: false }, { code: 'rule-wait', create: false }, past]],
      ['w', 'blocked', 'held-by-rule', [{ code: 'held-by-rule', message: 'rule `nights`: in quiet hours', count: 1, namesRule: true }, { code: 'rule-wait', create: true }]],
    ]);
    expect(heldByRules({ changes: [...result, change('blocked', 'x', { reason: 'file-errors' }), change('update', 'y', { reason: 'held-by-rule' })] })).toBe(3);
  });
});
