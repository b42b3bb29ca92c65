import { describe, expect, it } from 'vitest';
import { compactSummary, describeTrigger, renderDelta } from '../../cli/views/watch-delta.js';
import { colours } from '../../cli/views/style.js';
import { createPlan } from '../../src/plan/planner.js';
import { stateSectionHash } from '../../src/state/state-file.js';
import type { PlanTrigger } from '../../src/watch/events.js';
import { planDelta } from '../../src/watch/plan-delta.js';
import { desired, livePost, planInput, record, shape, state } from '../helpers/fixtures.js';

const plain = colours(false);
const trigger = (files: PlanTrigger['files'], extra: Partial<PlanTrigger> = {}): PlanTrigger => ({ files, refreshed: null, stateChanged: false, draftsApplied: false, ...extra });

describe('watch views', () => {
  it('names what set off a re-plan', () => {
    expect(String(describeTrigger(trigger([{ file: 'posts/a.md', kind: 'deleted' }, { file: 'posts/b.md', kind: 'added' }])))).toBe('posts/a.md renamed to posts/b.md');
    const many = ['a', 'b', 'c', 'd', 'e'].map((name) => ({ file: `posts/${name}.md`, kind: 'saved' as const }));
    expect(String(describeTrigger(trigger(many)))).toBe('posts/a.md saved, posts/b.md saved, posts/c.md saved and 2 more');
    expect(String(describeTrigger(trigger([{ file: 'posts/2026', kind: 'folder-deleted' }], { refreshed: 'manual' })))).toBe('posts/2026/ deleted, remote data re-read');
  });

  it('prints a headline with the counts before and after, then only what differs', () => {
    const applied = shape({ content: 'Launch day' });
    const section = state({ posts: { launch: record('p1', applied, 'posts/launch.md'), gone: record('p2', shape({ content: 'Gone' }), 'posts/gone.md') } });
    const input = { state: section, stateHash: stateSectionHash(section), live: [livePost('p1', applied), livePost('p2', shape({ content: 'Gone' }))] };
    const previous = createPlan(planInput({ ...input, desired: [desired('launch', applied)] }));
    const plan = createPlan(planInput({ ...input, desired: [desired('launch', shape({ content: 'Launch day!' }))] }));
    expect(compactSummary(previous)).toBe('no changes, 1 kept as draft (file removed)');
    const text = String(renderDelta({ at: new Date(2026, 0, 1, 12, 3, 4), trigger: trigger([{ file: 'posts/launch.md', kind: 'saved' }]), plan, previous, delta: planDelta(previous, plan, new Set(['posts/launch.md'])) }, plain, { timezone: 'UTC' }));
    expect(text.split('\n')).toEqual([
      '12:03:04 posts/launch.md saved → 1 to update, 1 kept as draft (file removed) (was no changes, 1 kept as draft (file removed))',
      '  ~ update  launch  (posts/launch.md)',
      '      changed in posts/launch.md: content',
      '      content: Launch day{+!+}',
    ]);
  });
});
