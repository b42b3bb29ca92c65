import { describe, expect, it } from 'vitest';
import type { Capabilities, Post } from '../../src/api/types.js';
import type { DesiredPost, InvalidFile } from '../../src/content/types.js';
import type { Diagnostic } from '../../src/diagnostics.js';
import { livePostsById } from '../../src/plan/plan-context.js';
import { planPosts } from '../../src/plan/plan-posts.js';
import { selectPlan } from '../../src/plan/select-plan.js';
import type { Change, Plan, PlanInput } from '../../src/plan/types.js';
import { NONE_UNCONFIRMED } from '../../src/plan/unconfirmed-records.js';
import type { UnconfirmedRecords } from '../../src/state/types.js';
import { stateSectionHash } from '../../src/state/state-file.js';
import type { ProjectState } from '../../src/state/types.js';
import { PHOTO, SHA_A, SHA_B, TARGET, desired, livePost, mediaId, mediaState, record, shape, state } from '../helpers/fixtures.js';

const NOW = new Date('2026-03-01T12:00:00.000Z');
const capabilities = new Map([[PHOTO, { available: true, supported: true } as Capabilities]]);
const applied = shape({ content: 'As applied' });
const edited = shape({ content: 'Edited' });

interface World {
  posts?: DesiredPost[];
  invalid?: InvalidFile[];
  content?: Diagnostic[];
  section?: ProjectState;
  live?: Post[];
  mediaSha256s?: Map<string, string>;
  unconfirmed?: Partial<UnconfirmedRecords>;
  prune?: boolean;
}

/** The plan of `world`, of every post (`keys` null) or of the posts `--target` names. */
function planOf(world: World, keys: string[] | null): Plan {
  const section = world.section ?? state();
  const input: PlanInput = {
    project: TARGET,
    desired: { posts: world.posts ?? [], held: [], invalid: world.invalid ?? [], contentDiagnostics: world.content ?? [], checkDiagnostics: [] },
    remote: { live: livePostsById(world.live ?? []), capabilities, ...(world.mediaSha256s === undefined ? {} : { mediaSha256s: world.mediaSha256s }) },
    state: { section, hash: stateSectionHash(section), unconfirmed: { ...NONE_UNCONFIRMED, ...world.unconfirmed } },
    prune: world.prune ?? false,
    now: NOW,
    timezone: 'UTC',
  };
  return selectPlan(planPosts(input), keys, input);
}

const lines = (changes: readonly Change[]) => changes.map((change) => `${change.action} ${change.key}${change.fromKey === undefined ? '' : ` from ${change.fromKey}`} (${change.reason})`);
const error = (file: string | undefined, message = 'something is wrong'): Diagnostic => ({ severity: 'error', code: 'test-error', message, ...(file === undefined ? {} : { file }) });

/** The changes of the whole plan that a selection of `keys` keeps: those of a named key, and moves from one. */
function ofKeys(plan: Plan, keys: readonly string[]): Change[] {
  return plan.changes.filter((change) => keys.includes(change.key) || (change.fromKey !== undefined && keys.includes(change.fromKey)));
}

describe('--target: the plan of the named posts', () => {
  const owned = state({
    posts: { old: record('p1', applied, 'posts/old.md'), edit: record('p2', applied, 'posts/edit.md'), launch: record('p3', applied, 'posts/launch.md') },
  });
  const world: World = {
    posts: [desired('a'), desired('b'), desired('edit', edited), desired('launch-v2', applied)],
    section: owned,
    live: [livePost('p1', applied), livePost('p2', applied), livePost('p3', applied)],
  };

  it('keeps the changes of the named keys, records the keys, and counts only them', () => {
    const plan = planOf(world, ['b', 'old']);
    expect(lines(plan.changes)).toEqual(['create b (new-file)', 'noop old (file-removed)']);
    expect(plan.only).toEqual(['b', 'old']);
    expect(plan.summary).toEqual({ create: 1, adopt: 0, update: 0, unschedule: 0, delete: 0, move: 0, noop: 1, blocked: 0 });
    expect(planOf(world, null).only).toBeNull();
  });

  it('keeps a move when either of its keys is named', () => {
    expect(lines(planOf(world, ['launch']).changes)).toEqual(['move launch-v2 from launch (renamed)']);
    expect(lines(planOf(world, ['launch-v2']).changes)).toEqual(['move launch-v2 from launch (renamed)']);
  });

  it('keeps every change of the named keys exactly as the whole plan has it, and the plan\'s diagnostics whole', () => {
    const withErrors: World = { ...world, content: [error('posts/a.md')] };
    const whole = planOf(withErrors, null);
    for (const keys of [['a'], ['b', 'edit'], ['launch', 'old'], ['nothing-of-that-key']]) {
      const plan = planOf(withErrors, keys);
      expect(plan.changes).toEqual(ofKeys(whole, keys));
      expect(plan.diagnostics).toEqual(whole.diagnostics);
      expect(plan.stateHash).toBe(whole.stateHash);
      expect(plan.createdAt).toBe(whole.createdAt);
    }
  });
});

describe('--target: media uploads', () => {
  it('uploads the media of the named posts only, used by them only', () => {
    const posts = [desired('one', shape({ media: [SHA_A] })), desired('two', shape({ content: 'two', media: [SHA_A, SHA_B] }))];
    expect(planOf({ posts }, null).uploads.map((upload) => [upload.sha256, upload.usedBy])).toEqual([[SHA_A, ['one', 'two']], [SHA_B, ['two']]]);
    expect(planOf({ posts }, ['one']).uploads.map((upload) => [upload.sha256, upload.usedBy])).toEqual([[SHA_A, ['one']]]);
    expect(planOf({ posts, section: state({ media: mediaState(SHA_A) }) }, ['two']).uploads.map((upload) => [upload.sha256, upload.usedBy])).toEqual([[SHA_B, ['two']]]);
  });

  it('uploads a media an adopt would record when that adopt is not named (it is not applied)', () => {
    const withMedia = shape({ media: [SHA_A] });
    const world: World = {
      posts: [desired('found', withMedia), desired('fresh', shape({ content: 'Another text', media: [SHA_A] }))],
      live: [livePost('p1', withMedia)],
      mediaSha256s: new Map([[mediaId(SHA_A), SHA_A]]),
    };
    const whole = planOf(world, null);
    expect(lines(whole.changes)).toEqual(['create fresh (new-file)', 'adopt found (unowned-match)']);
    expect(whole.uploads).toEqual([]);
    expect(planOf(world, ['fresh']).uploads.map((upload) => [upload.sha256, upload.path, upload.usedBy])).toEqual([[SHA_A, 'media/aaaa.png', ['fresh']]]);
    expect(planOf(world, ['fresh', 'found']).uploads).toEqual([]);
  });

  it('uploads nothing for a named post the guards block', () => {
    const post = desired('one', shape({ media: [SHA_A] }));
    expect(planOf({ posts: [post], content: [error('posts/one.md')] }, ['one']).uploads).toEqual([]);
  });
});

describe('--target: the guards still block what they block', () => {
  it('blocks a named post whose file has errors, with those errors', () => {
    const plan = planOf({ posts: [desired('a'), desired('b')], content: [error('posts/a.md', 'a typo')] }, ['a']);
    expect(lines(plan.changes)).toEqual(['blocked a (file-errors)']);
    expect(plan.changes[0]!.diagnostics).toEqual([error('posts/a.md', 'a typo')]);
  });

  it('shows a file that yields no post only when its key is named', () => {
    const world: World = { posts: [desired('launch')], invalid: [{ file: 'posts/idea.md', key: 'idea', readable: true }], content: [error('posts/idea.md')] };
    expect(lines(planOf(world, ['launch']).changes)).toEqual(['create launch (new-file)']);
    expect(lines(planOf(world, ['idea']).changes)).toEqual(['blocked idea (file-errors)']);
  });

  it('blocks every named write while the project has an error on no post file', () => {
    expect(lines(planOf({ posts: [desired('a'), desired('b')], content: [error(undefined)] }, ['b']).changes)).toEqual(['blocked b (project-errors)']);
  });

  it('blocks a named delete while an unreadable file may be its post renamed', () => {
    const section = state({ posts: { gone: record('p1', applied, 'posts/gone.md') } });
    const world: World = { section, live: [livePost('p1', applied)], prune: true, invalid: [{ file: 'posts/broken.md', key: 'broken', readable: false }], content: [error('posts/broken.md')] };
    expect(lines(planOf(world, ['gone']).changes)).toEqual(['blocked gone (unreadable-file)']);
  });

  it('blocks a named post resting on a record without a valid seal', () => {
    const section = state({ posts: { edit: record('p1', applied, 'posts/edit.md') } });
    const world: World = { posts: [desired('edit', edited), desired('other')], section, live: [livePost('p1', applied)], unconfirmed: { posts: new Set(['edit']) } };
    expect(lines(planOf(world, ['edit']).changes)).toEqual(['blocked edit (unconfirmed-record)']);
  });

  it('blocks a named reschedule into the past', () => {
    const before = shape({ content: 'x', scheduledAt: '2026-04-01T09:00:00.000Z' });
    const past = shape({ content: 'x', scheduledAt: '2026-02-01T09:00:00.000Z' });
    const section = state({ posts: { late: record('p1', before, 'posts/late.md') } });
    const plan = planOf({ posts: [desired('late', past), desired('other')], section, live: [livePost('p1', before, { status: 'scheduled' })] }, ['late']);
    expect(lines(plan.changes)).toEqual(['blocked late (scheduled-in-past)']);
    expect(plan.summary.blocked).toBe(1);
  });
});

describe('--target: a selection never changes what a change is', () => {
  // Before selectPlan, the guards saw only the named changes, so these two differed under --target.
  it('pairs a broken file with the owned posts of its file even when they are not named (a repeat\'s occurrences)', () => {
    const section = state({ posts: { 'weekly@2026-03-02': record('p1', applied, 'posts/weekly.md') } });
    const world: World = { section, live: [livePost('p1', applied)], invalid: [{ file: 'posts/weekly.md', key: 'weekly', readable: true }], content: [error('posts/weekly.md')] };
    expect(lines(planOf(world, null).changes)).toEqual(['blocked weekly@2026-03-02 (file-errors)']);
    expect(lines(planOf(world, ['weekly']).changes)).toEqual([]);
    expect(lines(planOf(world, ['weekly@2026-03-02']).changes)).toEqual(['blocked weekly@2026-03-02 (file-errors)']);
  });

  it('lets a named delete go when the unreadable file is another owned post\'s own file, as the whole plan does', () => {
    const section = state({ posts: { gone: record('p1', applied, 'posts/gone.md'), kept: record('p2', applied, 'posts/kept.md') } });
    const world: World = { section, live: [livePost('p1', applied), livePost('p2', applied)], prune: true, invalid: [{ file: 'posts/kept.md', key: 'kept', readable: false }], content: [error('posts/kept.md')] };
    expect(lines(planOf(world, null).changes)).toEqual(['delete gone (file-removed)', 'blocked kept (file-errors)']);
    expect(lines(planOf(world, ['gone']).changes)).toEqual(['delete gone (file-removed)']);
  });
});
