import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DesiredPost, PostShape } from '../../src/content/types.js';
import { livePostsById } from '../../src/plan/plan-context.js';
import { createPlan } from '../../src/plan/planner.js';
import type { LivePostsById, PlanInput } from '../../src/plan/types.js';
import { shapeHash } from '../../src/content/shape-hash.js';
import { stateSectionHash } from '../../src/state/state-file.js';
import type { TargetState } from '../../src/state/types.js';
import { IncrementalPlanner } from '../../src/plan/incremental-planner.js';
import { PHOTO, SHA_A, SHA_B, accounts, desired, livePost, mediaState, planInput, record, shape, state } from '../plan/fixtures.js';

const KEYS = ['a', 'b', 'c', 'd', 'e', 'f'];
const SHAPES: PostShape[] = [
  shape({ content: 'one' }),
  shape({ content: 'two' }),
  shape({ content: 'two', media: [SHA_A] }),
  shape({ content: 'three', media: [SHA_B], scheduledAt: '2031-01-01T09:00:00.000Z' }),
];

/** What a save does to one key: nothing (the very same object stays), a new file content, or the file goes. */
type KeyEdit = { kind: 'keep' } | { kind: 'remove' } | { kind: 'write'; shape: number; moved: boolean };

/** One step: the edits of a save, and whether the state or the remote changed since the last plan. */
interface Step {
  edits: KeyEdit[];
  stateVersion: number;
  remoteVersion: number;
}

const keyEdit: fc.Arbitrary<KeyEdit> = fc.oneof(
  { weight: 6, arbitrary: fc.constant({ kind: 'keep' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'remove' as const }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('write' as const), shape: fc.nat(SHAPES.length - 1), moved: fc.boolean() }) },
);
const step: fc.Arbitrary<Step> = fc.record({
  edits: fc.array(keyEdit, { minLength: KEYS.length, maxLength: KEYS.length }),
  stateVersion: fc.nat(1),
  remoteVersion: fc.nat(1),
});

/** Two states and two remotes: owned keys a-c (a drifted, c deleted remotely), a pending create of d. */
function world(version: number): { section: TargetState; live: LivePostsById } {
  const owned: TargetState = state({
    posts: {
      a: record('p-a', SHAPES[0]!, 'posts/a.md'),
      b: record('p-b', SHAPES[1]!, 'posts/b.md'),
      c: record('p-c', SHAPES[2]!, 'posts/c.md'),
      ...(version === 1 ? { e: record('p-e', SHAPES[0]!, 'posts/e.md') } : {}),
    },
    media: mediaState(SHA_A),
    pending: {
      d: { file: 'posts/d.md', idempotencyKey: 'psync-d', payload: { content: 'one', targets: [], mediaIds: [] }, shapeHash: shapeHash(SHAPES[0]!), startedAt: '2026-01-01T00:00:00.000Z' },
    },
  });
  const live = [livePost('p-a', SHAPES[1]!), livePost('p-b', SHAPES[1]!), livePost('p-e', SHAPES[0]!, { status: version === 1 ? 'published' : 'draft' })];
  return { section: owned, live: livePostsById(live) };
}

/** Each world made once: the same remote version is the very same listing, as a session keeps it until it lists again. */
const WORLDS = [world(0), world(1)];

describe('IncrementalPlanner', () => {
  it('plans exactly as createPlan does, whatever the sequence of saves, state and remote changes', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 12 }), (steps) => {
        const planner = new IncrementalPlanner();
        const files = new Map<string, DesiredPost>();
        for (const { edits, stateVersion, remoteVersion } of steps) {
          edits.forEach((edit, index) => {
            const key = KEYS[index]!;
            if (edit.kind === 'remove') files.delete(key);
            if (edit.kind === 'write') files.set(key, desired(key, SHAPES[edit.shape]!, { file: edit.moved ? `posts/moved/${key}.md` : `posts/${key}.md` }));
          });
          const { section } = WORLDS[stateVersion]!;
          const { live } = WORLDS[remoteVersion]!;
          const input = planInput({ desired: [...files.values()], state: section, stateHash: stateSectionHash(section), live, accounts: accounts() });
          expect(planner.plan(input)).toEqual(createPlan(input));
        }
      }),
      { numRuns: 200 },
    );
  });

  it('sends only the posts a save touched through the planner', () => {
    const planner = new IncrementalPlanner();
    const { section, live } = WORLDS[0]!;
    const posts = [desired('a', SHAPES[0]!), desired('b', SHAPES[1]!)];
    const input = planInput({ desired: posts, state: section, stateHash: stateSectionHash(section), live });
    const first = planner.plan(input);
    const edited = desired('b', SHAPES[0]!);
    const second = planner.plan({ ...input, desired: [posts[0]!, edited] });
    expect(second).toEqual(createPlan({ ...input, desired: [posts[0]!, edited] }));
    // The unchanged post's change is the very object of the first plan: it was not planned again.
    const changeOf = (plan: typeof first, key: string) => plan.changes.find((change) => change.key === key);
    expect(changeOf(second, 'a')).toBe(changeOf(first, 'a'));
    expect(changeOf(second, 'b')).not.toBe(changeOf(first, 'b'));
  });
});

describe('IncrementalPlanner: what makes it plan in full again', () => {
  const { section, live } = WORLDS[0]!;
  const base = () => planInput({ desired: [desired('a', SHAPES[1]!), desired('b', SHAPES[0]!)], state: section, stateHash: stateSectionHash(section), live });

  it('plans in full when --prune is given or dropped: a skipped delete becomes an executed one', () => {
    const planner = new IncrementalPlanner();
    const input = base();
    planner.plan(input);
    const pruned = { ...input, prune: true };
    expect(planner.plan(pruned)).toEqual(createPlan(pruned));
    expect(createPlan(pruned).changes).not.toEqual(createPlan(input).changes);
    expect(planner.plan(input)).toEqual(createPlan(input));
  });

  it('plans in full when an account becomes unavailable: its posts are blocked', () => {
    const planner = new IncrementalPlanner();
    const input = base();
    planner.plan(input);
    const down = { ...input, accounts: accounts({ [PHOTO]: { available: false, reason: 'token expired' } }) };
    const plan = planner.plan(down);
    expect(plan).toEqual(createPlan(down));
    expect(plan.changes.filter((change) => change.action === 'blocked').map((change) => change.key)).toContain('b');
  });

  it('plans in full for a state or a remote listing it has not seen, and with --target', () => {
    for (const change of [
      (input: PlanInput) => ({ ...input, state: WORLDS[1]!.section, stateHash: stateSectionHash(WORLDS[1]!.section) }),
      (input: PlanInput) => ({ ...input, live: WORLDS[1]!.live }),
      (input: PlanInput) => ({ ...input, only: ['b'] }),
    ]) {
      const planner = new IncrementalPlanner();
      const input = base();
      planner.plan(input);
      const next = change(input);
      expect(planner.plan(next)).toEqual(createPlan(next));
    }
  });

  it('reuses nothing while a new file is there: it may adopt any orphan', () => {
    const planner = new IncrementalPlanner();
    const input = { ...base(), desired: [...base().desired, desired('f', SHAPES[1]!)] };
    const first = planner.plan(input);
    const second = planner.plan(input);
    expect(second).toEqual(first);
    expect(second.changes.find((change) => change.key === 'a')).not.toBe(first.changes.find((change) => change.key === 'a'));
  });

  it('keeps reusing changes while a pending create is resumed: its post is not a new file', () => {
    const planner = new IncrementalPlanner();
    const input = { ...base(), desired: [...base().desired, desired('d', SHAPES[0]!)] };
    const first = planner.plan(input);
    const second = planner.plan(input);
    expect(second.changes.find((change) => change.key === 'd')).toMatchObject({ action: 'create', resumesPending: true });
    expect(second.changes.find((change) => change.key === 'a')).toBe(first.changes.find((change) => change.key === 'a'));
  });
});
