import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/diagnostics.js';
import { createPlan } from '../../src/plan/planner.js';
import { stateSectionHash } from '../../src/state/state-file.js';
import { isEmptyDelta, planDelta } from '../../src/watch/plan-delta.js';
import { desired, livePost, planInput, record, shape, state } from '../helpers/fixtures.js';

const applied = shape({ content: 'Launch day' });
const owned = state({ posts: { launch: record('p1', applied, 'posts/launch.md'), old: record('p2', shape({ content: 'Old' }), 'posts/old.md') } });
const live = [livePost('p1', applied), livePost('p2', shape({ content: 'Old' }))];
const plan = (posts: ReturnType<typeof desired>[], diagnostics: Diagnostic[] = []) =>
  createPlan(planInput({ desired: posts, diagnostics, state: owned, stateHash: stateSectionHash(owned), live }));
const yamlError = (line: number): Diagnostic => ({ severity: 'error', code: 'yaml-syntax', message: 'bad indentation', file: 'posts/news.md', line, column: 1 });

describe('planDelta', () => {
  const before = plan([desired('launch', applied), desired('old', shape({ content: 'Old' }))]);

  it('is empty when nothing differs', () => {
    const same = plan([desired('launch', applied), desired('old', shape({ content: 'Old' }))]);
    expect(isEmptyDelta(planDelta(before, same, new Set()))).toBe(true);
  });

  it('lists new and different changes, and the ones with nothing left to do', () => {
    const edited = plan([desired('launch', shape({ content: 'Launch day!' })), desired('old', shape({ content: 'Old' })), desired('news', shape({ content: 'News' }))]);
    const delta = planDelta(before, edited, new Set(['posts/launch.md', 'posts/news.md']));
    expect(delta.changes.map((change) => `${change.action} ${change.key}`)).toEqual(['create news', 'update launch']);
    expect(delta.dropped).toEqual([]);
    expect(delta.uploadsChanged).toBe(false);

    const reverted = planDelta(edited, before, new Set(['posts/launch.md']));
    expect(reverted.changes).toEqual([]);
    expect(reverted.dropped.map((change) => `${change.action} ${change.key}`)).toEqual(['create news', 'update launch']);
  });

  it('does not call a renamed post dropped: its move is shown instead', () => {
    const renamed = plan([desired('launch', applied), desired('older', shape({ content: 'Old' }), { file: 'posts/older.md' })]);
    const withDelete = plan([desired('launch', applied)]);
    const delta = planDelta(withDelete, renamed, new Set(['posts/older.md', 'posts/old.md']));
    expect(delta.changes.map((change) => `${change.action} ${change.fromKey ?? ''}→${change.key}`)).toEqual(['move old→older']);
    expect(delta.dropped).toEqual([]);
  });

  it('shows every problem of the touched files and new ones elsewhere; a problem that moved lines is not "fixed"', () => {
    const broken = plan([desired('launch', applied), desired('old', shape({ content: 'Old' }))], [yamlError(2)]);
    const opened = planDelta(before, broken, new Set(['posts/news.md']));
    expect(opened.diagnostics).toEqual([yamlError(2)]);
    expect(opened.fixed).toEqual([]);

    const shifted = plan([desired('launch', applied), desired('old', shape({ content: 'Old' }))], [yamlError(3)]);
    expect(planDelta(broken, shifted, new Set(['posts/launch.md']))).toMatchObject({ diagnostics: [], fixed: [] });
    expect(planDelta(broken, shifted, new Set(['posts/news.md']))).toMatchObject({ diagnostics: [yamlError(3)], fixed: [] });
    expect(planDelta(broken, before, new Set(['posts/news.md']))).toMatchObject({ diagnostics: [], fixed: [yamlError(2)] });
  });
});
