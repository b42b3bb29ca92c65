import { describe, expect, it } from 'vitest';
import type { InvalidFile } from '../../src/content/types.js';
import type { Diagnostic } from '../../src/diagnostics.js';
import { guardChanges } from '../../src/plan/guards.js';
import { createPlan } from '../../src/plan/planner.js';
import type { Plan } from '../../src/plan/types.js';
import type { DesiredPost } from '../../src/content/types.js';
import { PHOTO, SHA_A, accounts, desired, livePost, mediaState, planInput, record, shape, state } from '../helpers/fixtures.js';
import type { ProjectState } from '../../src/state/types.js';

const NOW = new Date('2026-03-01T12:00:00.000Z');

function guard(plan: Plan, parts: { posts: DesiredPost[]; state: ProjectState; diagnostics?: Diagnostic[]; invalidFiles?: InvalidFile[] }): Plan {
  const input = planInput({ desired: parts.posts, state: parts.state, diagnostics: parts.diagnostics ?? [], invalid: parts.invalidFiles ?? [], now: NOW.toISOString(), timezone: 'Europe/Berlin' });
  return guardChanges(plan, input);
}

/** The plan of an owned post applied as `before` whose file now says `after`. */
function ownedPlan(before: ReturnType<typeof shape>, after: ReturnType<typeof shape>) {
  const section = state({ posts: { launch: record('p1', before, 'posts/launch.md') }, media: mediaState(SHA_A) });
  const posts = [desired('launch', after)];
  const plan = createPlan(planInput({ desired: posts, state: section, live: [livePost('p1', before, { status: before.scheduledAt === null ? 'draft' : 'scheduled' })] }));
  return { plan, posts, section };
}

const scheduled = (scheduledAt: string) => shape({ scheduledAt });

describe('guardChanges: a post can only be rescheduled into the future', () => {
  it('blocks an update that moves a post to a time already past, and says why on the project clock', () => {
    const { plan, posts, section } = ownedPlan(scheduled('2026-04-01T09:00:00.000Z'), scheduled('2026-02-01T09:00:00.000Z'));
    expect(plan.changes.map((c) => c.action)).toEqual(['update']);
    const guarded = guard(plan, { posts, state: section });
    expect(guarded.changes.map((c) => c.action)).toEqual(['blocked']);
    expect(guarded.changes[0]!.details).toEqual([{ code: 'scheduled-in-past', scheduledAt: '2026-02-01T09:00:00.000Z', timezone: 'Europe/Berlin' }]);
    expect(guarded.summary).toMatchObject({ update: 0, blocked: 1 });
  });

  it('blocks a reschedule to this very instant: it would be past by the time it is sent', () => {
    const { plan, posts, section } = ownedPlan(scheduled('2026-04-01T09:00:00.000Z'), scheduled(NOW.toISOString()));
    expect(guard(plan, { posts, state: section }).changes.map((c) => c.action)).toEqual(['blocked']);
  });

  it('lets an update to a future time through, and returns the plan untouched', () => {
    const { plan, posts, section } = ownedPlan(scheduled('2026-04-01T09:00:00.000Z'), scheduled('2026-05-01T09:00:00.000Z'));
    expect(guard(plan, { posts, state: section })).toBe(plan);
  });

  it('lets an update that leaves a past time as it is through (only the content changes)', () => {
    const past = '2026-02-01T09:00:00.000Z';
    const { plan, posts, section } = ownedPlan(shape({ scheduledAt: past, content: 'old' }), shape({ scheduledAt: past, content: 'new' }));
    expect(plan.changes.map((c) => c.action)).toEqual(['update']);
    expect(guard(plan, { posts, state: section })).toBe(plan);
  });

  it('lets an update that makes a scheduled post a draft through (no time to check)', () => {
    const { plan, posts, section } = ownedPlan(scheduled('2026-02-01T09:00:00.000Z'), shape());
    expect(plan.changes[0]!.fields?.map((f) => f.field)).toContain('scheduledAt');
    expect(guard(plan, { posts, state: section })).toBe(plan);
  });

  it('blocks an update that changes the text and moves the time into the past', () => {
    const { plan, posts, section } = ownedPlan(shape({ scheduledAt: '2026-04-01T09:00:00.000Z', content: 'old' }), shape({ scheduledAt: '2026-02-01T09:00:00.000Z', content: 'new' }));
    expect(plan.changes[0]!.fields?.map((f) => f.field)).toEqual(['content', 'scheduledAt']);
    expect(guard(plan, { posts, state: section }).changes.map((c) => c.action)).toEqual(['blocked']);
  });

  it('keeps the reason of a post blocked already (its account is unavailable), past time or not', () => {
    const before = scheduled('2026-04-01T09:00:00.000Z');
    const section = state({ posts: { launch: record('p1', before, 'posts/launch.md') } });
    const posts = [desired('launch', scheduled('2026-02-01T09:00:00.000Z'))];
    const plan = createPlan(planInput({ desired: posts, state: section, live: [livePost('p1', before)], accounts: accounts({ [PHOTO]: { available: false, reason: 'token expired' } }) }));
    expect(plan.changes.map((c) => [c.action, c.fields?.map((f) => f.field)])).toEqual([['blocked', ['scheduledAt']]]);
    expect(guard(plan, { posts, state: section })).toBe(plan);
  });

  it('leaves creates to the content checks: only updates are guarded here', () => {
    const posts = [desired('launch', scheduled('2026-02-01T09:00:00.000Z'))];
    const plan = createPlan(planInput({ desired: posts }));
    expect(guard(plan, { posts, state: state() })).toBe(plan);
  });
});

describe('guardChanges: posts with errors', () => {
  const broken: Diagnostic = { severity: 'error', code: 'yaml-syntax', message: 'bad', file: 'posts/launch.md' };

  it('blocks a post whose file has errors, and uploads nothing for it', () => {
    const posts = [desired('launch', shape({ media: [SHA_A] }))];
    const plan = createPlan(planInput({ desired: posts }));
    expect(plan.uploads).toHaveLength(1);
    const guarded = guard(plan, { posts, state: state(), diagnostics: [broken] });
    expect(guarded.changes.map((c) => c.action)).toEqual(['blocked']);
    expect(guarded.uploads).toEqual([]);
  });

  it('adds a blocked change for a file that yields no post, sorted with the others', () => {
    const posts = [desired('news')];
    const plan = createPlan(planInput({ desired: posts }));
    const invalid: InvalidFile[] = [{ file: 'posts/launch.md', key: 'launch', readable: true }];
    const guarded = guard(plan, { posts, state: state(), diagnostics: [broken], invalidFiles: invalid });
    expect(guarded.changes.map((c) => `${c.action} ${c.key}`)).toEqual(['create news', 'blocked launch']);
    expect(guarded.summary).toMatchObject({ create: 1, blocked: 1 });
  });

  it('holds back deletes for an unreadable file even when no error diagnostic came with it', () => {
    const applied = shape({ content: 'applied' });
    const section = state({ posts: { gone: record('p1', applied, 'posts/gone.md') } });
    const plan = createPlan(planInput({ state: section, live: [livePost('p1', applied)], prune: true }));
    expect(plan.changes.map((c) => c.action)).toEqual(['delete']);
    const guarded = guard(plan, { posts: [], state: section, invalidFiles: [{ file: 'posts/renamed.md', key: 'renamed', readable: false }] });
    expect(guarded.changes.map((c) => `${c.action} ${c.key}`)).toEqual(['blocked gone', 'blocked renamed']);
  });

  it('returns the plan untouched when a warning is all there is', () => {
    const posts = [desired('launch')];
    const plan = createPlan(planInput({ desired: posts }));
    expect(guard(plan, { posts, state: state(), diagnostics: [{ ...broken, severity: 'warning' }] })).toBe(plan);
  });
});
