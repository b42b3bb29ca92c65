import { describe, expect, it } from 'vitest';
import planSchema from '../../schemas/plan.schema.json' with { type: 'json' };
import type { DesiredPost } from '../../src/content/types.js';
import type { Diagnostic } from '../../src/diagnostics.js';
import { withScheduleFacts } from '../../src/plan/schedule-changes.js';
import { guardChanges } from '../../src/plan/guards.js';
import { blockForeign } from '../../src/plan/foreign-owners.js';
import { createPlan } from '../../src/plan/planner.js';
import { blockPostsWithErrors } from '../../src/plan/posts-with-errors.js';
import { blockShared, blockUnconfirmed, NONE_UNCONFIRMED, sharedPostRecords } from '../../src/plan/unconfirmed-records.js';
import { ACTIONS, CHANGE_REASONS, type Action, type Change, type ChangeReason, type ReasonOf } from '../../src/plan/types.js';
import { shapeHash } from '../../src/content/shape-hash.js';
import { PHOTO, accounts, desired, livePost, planInput, planOf, record, shape, state, type PlanInputParts } from '../helpers/fixtures.js';

// Every reason code a change can carry, each with the situation that gives it. The table is typed
// by the closed set: a code added to CHANGE_REASONS without a situation here does not compile.

const applied = shape({ content: 'Launch day' });
const edited = shape({ content: 'Launch week' });
const scheduled = shape({ content: 'Launch day', scheduledAt: '2026-04-01T09:00:00.000Z' });
const owned = (section = state({ posts: { launch: record('p1', applied, 'posts/launch.md') } })) => section;
const pending = { file: 'posts/launch.md', idempotencyKey: 'psync-x', payload: { content: 'Launch day', targets: [], mediaIds: [] }, shapeHash: shapeHash(applied), startedAt: '2026-01-01T00:00:00.000Z' };

function planned(input: PlanInputParts): Change {
  const plan = createPlan(planInput(input));
  expect(plan.changes).toHaveLength(1);
  return plan.changes[0]!;
}

function occurrence(key: string, date: string): DesiredPost {
  return { ...desired(`${key}@${date}`, shape({ scheduledAt: `${date}T08:00:00.000Z` }), { file: `posts/${key}.md` }), occurrence: { of: key, date } };
}

/** An owned occurrence of `weekly` whose date the repeat no longer has, planned with the repeat's other posts. */
function surplusOccurrence(options: { live: ReturnType<typeof livePost>; prune?: boolean }): Change {
  const kept = occurrence('weekly', '2027-01-11');
  const section = state({ posts: { 'weekly@2027-03-01': record('p9', shape(), 'posts/weekly.md') } });
  const plan = createPlan(planInput({ desired: [kept], state: section, live: [options.live], prune: options.prune ?? false }));
  return plan.changes.find((change) => change.key === 'weekly@2027-03-01')!;
}

const error = (file: string | undefined): Diagnostic => ({ severity: 'error', code: 'test-error', message: 'broken', ...(file === undefined ? {} : { file }) });
const errorsContext = { invalidFiles: [], held: [], postKeys: new Set(['launch']), postFiles: new Set(['posts/launch.md']), state: state() };

const SITUATIONS: { [A in Action]: { [R in ReasonOf<A>]: () => Change } } = {
  create: {
    'new-file': () => planned({ desired: [desired('launch', applied)] }),
    'new-occurrence': () => planned({ desired: [occurrence('weekly', '2027-01-11')] }),
    'interrupted-create': () => planned({ desired: [desired('launch', applied)], state: state({ pending: { launch: pending } }) }),
    'deleted-on-remote': () => planned({ desired: [desired('launch', applied)], state: owned(), choices: { adopt: new Map(), recreate: { all: false, keys: new Set(['launch']) } } }),
  },
  adopt: {
    'unowned-match': () => planned({ desired: [desired('launch', applied)], live: [livePost('p1', applied)] }),
    'tidied-match': () => planned({ desired: [desired('launch', shape({ content: 'Launch day  ' }))], live: [livePost('p1', applied)] }),
    chosen: () => planned({ desired: [desired('launch', edited)], live: [livePost('p1', applied)], choices: { adopt: new Map([['launch', 'p1']]), recreate: { all: false, keys: new Set() } } }),
  },
  update: {
    'file-changed': () => planned({ desired: [desired('launch', edited)], state: owned(), live: [livePost('p1', applied)] }),
    drifted: () => planned({ desired: [desired('launch', applied)], state: owned(), live: [livePost('p1', edited, { updatedAt: '2026-02-01T00:00:00.000Z' })] }),
    'merged-record': () => planned({ desired: [desired('launch', edited)], state: owned(state({ posts: { launch: { ...record('p1', applied, 'posts/launch.md'), reread: true } } })), live: [livePost('p1', applied)] }),
  },
  unschedule: {
    'file-removed': () => planned({ state: owned(state({ posts: { launch: record('p1', scheduled, 'posts/launch.md') } })), live: [livePost('p1', scheduled)] }),
    'occurrence-removed': () => surplusOccurrence({ live: livePost('p9', scheduled) }),
  },
  delete: {
    'file-removed': () => planned({ state: owned(), live: [livePost('p1', applied)], prune: true }),
    'occurrence-removed': () => surplusOccurrence({ live: livePost('p9', applied), prune: true }),
    'gone-on-remote': () => planned({ state: owned() }),
  },
  move: {
    renamed: () => planned({ desired: [desired('launch', applied, { file: 'posts/launch-day.md' })], state: owned(), live: [livePost('p1', applied)] }),
    'key-changed': () => planned({ desired: [desired('launch-day', applied, { file: 'posts/launch.md' })], state: owned(), live: [livePost('p1', applied)] }),
  },
  noop: {
    'up-to-date': () => planned({ desired: [desired('launch', applied)], state: owned(), live: [livePost('p1', applied)] }),
    'file-removed': () => planned({ state: owned(), live: [livePost('p1', applied)] }),
    'occurrence-removed': () => surplusOccurrence({ live: livePost('p9', applied) }),
    'published-kept': () => planned({ state: owned(), live: [livePost('p1', applied, { status: 'published' })], prune: true }),
    'not-visible-yet': () => planned({ desired: [desired('launch', applied)], state: owned(), now: '2026-01-02T00:01:00.000Z' }),
  },
  blocked: {
    'file-errors': () => blockPostsWithErrors([planned({ desired: [desired('launch', applied)] })], { ...errorsContext, diagnostics: [error('posts/launch.md')] })[0]!,
    'held-by-rule': () =>
      blockPostsWithErrors([planned({ state: owned(state({ posts: { launch: record('p1', scheduled, 'posts/launch.md') } })), live: [livePost('p1', scheduled)] })], {
        ...errorsContext,
        postKeys: new Set(),
        diagnostics: [{ ...error('posts/launch.md'), code: 'rule-quiet-hours', key: 'launch' }],
        held: [{ file: 'posts/launch.md', key: 'launch' }],
      })[0]!,
    'project-errors': () => blockPostsWithErrors([planned({ desired: [desired('launch', applied)] })], { ...errorsContext, diagnostics: [error(undefined)] })[0]!,
    'unreadable-file': () =>
      blockPostsWithErrors([planned({ state: owned(), live: [livePost('p1', applied)], prune: true })], {
        ...errorsContext,
        postKeys: new Set(),
        postFiles: new Set(['posts/broken.md']),
        diagnostics: [error('posts/broken.md')],
        invalidFiles: [{ file: 'posts/broken.md', key: 'broken', readable: false }],
        state: owned(),
      }).find((change) => change.key === 'launch')!,
    'unconfirmed-record': () => blockUnconfirmed(planned({ desired: [desired('launch', edited)], state: owned(), live: [livePost('p1', applied)] }), { ...NONE_UNCONFIRMED, posts: new Set(['launch']) }),
    'shared-record': () => {
      const section = state({ posts: { launch: record('p1', applied, 'posts/launch.md'), old: record('p1', applied, 'posts/old.md') } });
      return blockShared(planned({ desired: [desired('launch', edited)], state: owned(state({ posts: { launch: record('p1', applied, 'posts/launch.md') } })), live: [livePost('p1', applied)] }), sharedPostRecords(section));
    },
    'other-calendar': () => blockForeign(planned({ desired: [desired('launch', edited)], state: owned(), live: [livePost('p1', applied)] }), new Map([['p1', 'clients/a']])),
    'deleted-on-remote': () => planned({ desired: [desired('launch', applied)], state: owned() }),
    'adopt-ambiguous': () => planned({ desired: [desired('launch', shape({ content: 'Launch day  ' }))], live: [livePost('p1', applied), livePost('p2', applied)] }),
    'adopt-uncertain': () => planned({ desired: [desired('launch', shape({ content: 'Launch day', scheduledAt: '2026-04-01T09:00:00.000Z' }))], live: [livePost('p1', applied)] }),
    'not-editable': () => planned({ desired: [desired('launch', edited)], state: owned(), live: [livePost('p1', applied, { status: 'published' })] }),
    'account-unavailable': () => planned({ desired: [desired('launch', applied)], accounts: accounts({ [PHOTO]: { available: false, reason: 'token expired' } }) }),
    'scheduled-in-past': () => {
      const past = shape({ content: 'Launch day', scheduledAt: '2026-02-01T09:00:00.000Z' });
      const posts = [desired('launch', past)];
      const section = owned(state({ posts: { launch: record('p1', scheduled, 'posts/launch.md') } }));
      const plan = createPlan(planInput({ desired: posts, state: section, live: [livePost('p1', scheduled)] }));
      return guardChanges(plan, planInput({ desired: posts, state: section, timezone: 'Europe/Berlin' })).changes[0]!;
    },
  },
};

/** Fails to compile when a reason code is in no action's list: the closed set is the lists. */
type Unlisted = Exclude<ChangeReason, (typeof CHANGE_REASONS)[Action][number]>;
const NOTHING_UNLISTED: [Unlisted] extends [never] ? true : false = true;

/** The prose a view shows for a code can change; this only compiles while every code is handled. */
function handled(change: Change): string {
  switch (change.action) {
    case 'create':
    case 'adopt':
    case 'update':
    case 'unschedule':
    case 'delete':
    case 'move':
    case 'noop':
    case 'blocked':
      return change.reason;
    default: {
      const unknown: never = change;
      return unknown;
    }
  }
}

describe('the reason codes of plan changes: a closed set per action', () => {
  it('lists every action, and every code of an action has a situation that gives it', () => {
    expect(NOTHING_UNLISTED).toBe(true);
    expect(Object.keys(CHANGE_REASONS).sort()).toEqual([...ACTIONS].sort());
    for (const action of ACTIONS) expect(Object.keys(SITUATIONS[action]).sort()).toEqual([...CHANGE_REASONS[action]].sort());
  });

  for (const action of ACTIONS) {
    for (const [reason, situation] of Object.entries(SITUATIONS[action] as Record<string, () => Change>)) {
      it(`${action}: ${reason}`, () => {
        const change = situation();
        expect({ action: change.action, reason: handled(change) }).toEqual({ action, reason });
        expect(change.details.length).toBeGreaterThan(0);
      });
    }
  }

  it('the plan schema allows each action exactly its own codes', () => {
    type Rule = { if: { properties: { action: { const?: string } } }; then: { properties?: { reason?: { enum: string[] } } } };
    const rules = (planSchema as unknown as { $defs: { change: { allOf: Rule[] } } }).$defs.change.allOf;
    const byAction = Object.fromEntries(rules.flatMap((rule) => (rule.then.properties?.reason === undefined ? [] : [[rule.if.properties.action.const, rule.then.properties.reason.enum]])));
    expect(byAction).toEqual(CHANGE_REASONS);
  });
});

describe('a code is set once, by the planner', () => {
  it('gives a surplus occurrence its code and details when it plans it: the schedule facts keep them', () => {
    const kept = occurrence('weekly', '2027-01-11');
    const change = surplusOccurrence({ live: livePost('p9', applied) });
    expect(change).toMatchObject({ action: 'noop', reason: 'occurrence-removed', occurrence: { of: 'weekly', date: '2027-03-01' } });
    expect(change.details).toEqual([{ code: 'occurrence-removed', date: '2027-03-01', file: 'posts/weekly.md', outcome: 'kept-as-draft' }]);
    expect(withScheduleFacts(planOf([change]), [kept]).changes[0]).toBe(change);
  });

  it('gives a new occurrence its code and details whatever the schedule facts add', () => {
    const post = occurrence('weekly', '2027-01-11');
    const create = planned({ desired: [post] });
    expect(create).toMatchObject({ reason: 'new-occurrence', details: [{ code: 'new-occurrence', date: '2027-01-11' }] });
    expect(withScheduleFacts(planOf([create]), [post]).changes[0]).toMatchObject({ reason: 'new-occurrence', details: create.details, occurrence: { of: 'weekly', date: '2027-01-11' } });
  });
});
