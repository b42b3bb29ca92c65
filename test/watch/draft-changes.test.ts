import { describe, expect, it } from 'vitest';
import type { Post } from '../../src/api/types.js';
import { livePostsById } from '../../src/plan/plan-context.js';
import { createPlan } from '../../src/plan/planner.js';
import { shapeHash } from '../../src/content/shape-hash.js';
import { stateSectionHash } from '../../src/state/state-file.js';
import { draftOnlyPlan } from '../../src/watch/draft-changes.js';
import { SHA_A, desired, livePost, planInput, record, shape, state } from '../helpers/fixtures.js';

const LATER = '2031-01-01T09:00:00.000Z';
const draftShape = shape({ content: 'Draft' });
const scheduledShape = shape({ content: 'Scheduled', scheduledAt: LATER });

function planOf(options: { posts: ReturnType<typeof desired>[]; section?: ReturnType<typeof state>; live?: Post[] }) {
  const section = options.section ?? state();
  const plan = createPlan(planInput({ desired: options.posts, state: section, stateHash: stateSectionHash(section), live: options.live ?? [] }));
  return { plan, section, live: livePostsById(options.live ?? []) };
}

const keys = (plan: ReturnType<typeof draftOnlyPlan>) => plan?.changes.map((change) => `${change.action} ${change.key}`) ?? [];

describe('draftOnlyPlan', () => {
  it('keeps creates of drafts with their uploads, never a scheduled create', () => {
    const { plan, section, live } = planOf({ posts: [desired('draft', shape({ content: 'Draft', media: [SHA_A] })), desired('later', scheduledShape)] });
    const drafts = draftOnlyPlan(plan, { live, section });
    expect(keys(drafts)).toEqual(['create draft']);
    expect(drafts!.uploads.map((upload) => upload.usedBy)).toEqual([['draft']]);
    expect(drafts!.summary).toMatchObject({ create: 1, update: 0 });
  });

  it('keeps updates of a draft that stays a draft; never scheduling, unscheduling or edits of scheduled posts', () => {
    const section = state({
      posts: {
        plain: record('p1', draftShape, 'posts/plain.md'),
        schedule: record('p2', draftShape, 'posts/schedule.md'),
        unschedule: record('p3', scheduledShape, 'posts/unschedule.md'),
        edit: record('p4', scheduledShape, 'posts/edit.md'),
      },
    });
    const livePosts = [livePost('p1', draftShape), livePost('p2', draftShape), livePost('p3', scheduledShape), livePost('p4', scheduledShape)];
    const live = livePostsById(livePosts);
    const { plan } = planOf({
      section,
      live: livePosts,
      posts: [
        desired('plain', shape({ content: 'Draft, edited' })),
        desired('schedule', shape({ content: 'Draft', scheduledAt: LATER })),
        desired('unschedule', shape({ content: 'Scheduled' })),
        desired('edit', shape({ content: 'Scheduled, edited', scheduledAt: LATER })),
      ],
    });
    expect(plan.summary.update).toBe(4);
    expect(keys(draftOnlyPlan(plan, { live, section }))).toEqual(['update plain']);
  });

  it('never deletes or moves, and leaves out files with errors and excluded changes', () => {
    const section = state({ posts: { gone: record('p1', draftShape, 'posts/gone.md'), renamed: record('p2', shape({ content: 'Same' }), 'posts/renamed.md') } });
    const { plan, live } = planOf({ section, live: [livePost('p1', draftShape), livePost('p2', shape({ content: 'Same' }))], posts: [desired('moved', shape({ content: 'Same' })), desired('broken', shape({ content: 'Broken' })), desired('failed', shape({ content: 'Again' }))] });
    const withError = { ...plan, diagnostics: [{ severity: 'error' as const, code: 'x', message: 'x', file: 'posts/broken.md' }] };
    expect(plan.changes.map((change) => change.action).sort()).toEqual(['create', 'create', 'move', 'noop']);
    expect(keys(draftOnlyPlan(withError, { live, section, exclude: (change) => change.key === 'failed' }))).toEqual([]);
    expect(draftOnlyPlan(withError, { live, section })).not.toBeNull();
  });

  it('resumes a pending draft create, not a pending scheduled one', () => {
    const pending = (scheduledAt: string | null) => ({
      file: 'posts/p.md', idempotencyKey: 'psync-p', payload: { content: 'P', targets: [], mediaIds: [], ...(scheduledAt ? { scheduledAt } : {}) }, shapeHash: shapeHash(draftShape), startedAt: '2026-01-01T00:00:00.000Z',
    });
    for (const [scheduledAt, expected] of [[null, ['create p']], [LATER, []]] as const) {
      const section = state({ pending: { p: pending(scheduledAt) } });
      const { plan, live } = planOf({ section, posts: [desired('p', draftShape)] });
      expect(keys(draftOnlyPlan(plan, { live, section }))).toEqual(expected);
    }
  });
  it('resumes an interrupted draft create by the post it made only while that post is a draft: never unscheduling it', () => {
    const pending = { file: 'posts/idea.md', idempotencyKey: 'psync-idea', payload: { content: 'Draft', targets: [{ socialAccountId: draftShape.targets[0]!.socialAccountId }], mediaIds: [] }, shapeHash: shapeHash(draftShape), startedAt: '2026-01-01T00:00:00.000Z' };
    const section = state({ pending: { idea: pending } });
    const asDraft = planOf({ posts: [desired('idea', draftShape)], section, live: [livePost('p1', draftShape)] });
    expect(keys(draftOnlyPlan(asDraft.plan, asDraft))).toEqual(['create idea']);
    // Scheduled on the remote since: taking it would unschedule it, which watch never does on its own.
    const scheduled = planOf({ posts: [desired('idea', draftShape)], section, live: [livePost('p1', shape({ content: 'Draft', scheduledAt: LATER }), { status: 'scheduled' })] });
    expect(scheduled.plan.changes[0]).toMatchObject({ action: 'create', postId: 'p1' });
    expect(draftOnlyPlan(scheduled.plan, scheduled)).toBeNull();
  });
});
