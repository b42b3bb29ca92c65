import { beforeEach, describe, expect, it } from 'vitest';
import { InputError, StalePlanError } from '../../src/errors.js';
import { checkPlanFresh, parsePlan, postIdsToCheck } from '../../src/plan/plan-file.js';
import { changeWithReasons, serializePlan } from '../../src/plan-words/plan-json.js';
import { reasonSentences } from '../../src/plan-words/reason-words.js';
import { createPlan } from '../../src/plan/planner.js';
import type { Plan } from '../../src/plan/types.js';
import { SHA_A, TARGET, desired, livePost, mediaState, planInput, record, shape, state } from '../helpers/fixtures.js';
import { shapeHash } from '../../src/content/shape-hash.js';

const applied = shape({ content: 'applied', media: [SHA_A] });
const section = state({
  media: mediaState(SHA_A),
  posts: {
    edit: record('p-edit', applied, 'posts/edit.md'),
    same: record('p-same', applied, 'posts/same.md'),
    gone: record('p-gone', applied, 'posts/gone.md'),
    kept: record('p-kept', applied, 'posts/kept.md'),
  },
});
const live = [livePost('p-edit', applied), livePost('p-same', applied), livePost('p-gone', applied), livePost('p-kept', applied)];

function samplePlan(prune = true): Plan {
  return createPlan(
    planInput({
      state: section,
      live,
      prune,
      desired: [desired('edit', shape({ content: 'edited', media: [SHA_A] })), desired('same', applied), desired('new'), desired('kept', applied)],
      diagnostics: [{ severity: 'warning', code: 'w', message: 'm', file: 'posts/new.md', line: 2, column: 1 }],
    }),
  );
}

describe('plan files', () => {
  it('round-trips through serializePlan and parsePlan', async () => {
    const plan = samplePlan();
    const text = serializePlan(plan);
    expect(text.endsWith('}\n')).toBe(true);
    expect(await parsePlan(text)).toEqual(plan);
    expect(serializePlan(await parsePlan(text))).toBe(text);
  });

  it('gives each change its details as the sentences `reasons` for people, then the details it is read back from', () => {
    const plan = samplePlan();
    const written = JSON.parse(serializePlan(plan)) as { changes: Record<string, unknown>[] };
    written.changes.forEach((change, index) => {
      const keys = Object.keys(change);
      expect(keys.indexOf('details')).toBe(keys.indexOf('reasons') + 1);
      expect(change.reasons).toEqual(reasonSentences(plan.changes[index]!));
      expect(change.details).toEqual(plan.changes[index]!.details);
    });
  });

  it('rejects another formatVersion, invalid JSON and invalid plans with InputError', async () => {
    const plan = JSON.parse(serializePlan(samplePlan())) as Record<string, unknown>;
    await expect(parsePlan(JSON.stringify({ ...plan, formatVersion: 2 }), { source: 'plan.json' })).rejects.toThrow(
      /plan.json has formatVersion 2; this postsync reads formatVersion 1/,
    );
    await expect(parsePlan('{ nope')).rejects.toThrow(InputError);
    const broken = { ...plan, changes: [{ action: 'explode', reason: 'new-file', key: 'x', file: null, postId: null, details: [] }] };
    await expect(parsePlan(JSON.stringify(broken))).rejects.toThrow(/\/changes\/0\/action: must be equal to one of the allowed values/);
  });

  it('refuses a change that writes a post but names no file (apply records the file it was applied from)', async () => {
    const plan = JSON.parse(serializePlan(samplePlan())) as Plan;
    for (const action of ['create', 'update', 'unschedule'] as const) {
      const index = plan.changes.findIndex((change) => change.action === action || (action === 'unschedule' && change.action === 'delete'));
      const changes = plan.changes.map((change, i) => (i === index ? { ...change, action, file: null } : change));
      await expect(parsePlan(JSON.stringify({ ...plan, changes })), action).rejects.toThrow(new RegExp(`/changes/${index}/file: must be string`));
    }
  });

  it('refuses a create, adopt or update without its desired post: apply sends or records exactly that post', async () => {
    const plan = JSON.parse(serializePlan(samplePlan())) as Plan;
    for (const action of ['create', 'update'] as const) {
      const index = plan.changes.findIndex((change) => change.action === action);
      const changes = plan.changes.map((change, i) => (i === index ? { ...change, desired: undefined } : change));
      await expect(parsePlan(JSON.stringify({ ...plan, changes })), action).rejects.toThrow(new RegExp(`/changes/${index}: must have required property 'desired'`));
    }
  });
});

describe('checkPlanFresh', () => {
  // Planned inside each test (not while tests are collected), so the planner runs under each test.
  let plan: Plan;
  beforeEach(() => {
    plan = samplePlan();
  });
  const current = () => new Map(postIdsToCheck(plan).map((id) => [id, live.find((post) => post.id === id) ?? null]));

  it('lists only the posts apply writes to', () => {
    expect(postIdsToCheck(plan).sort()).toEqual(['p-edit', 'p-gone']);
    expect(postIdsToCheck(samplePlan(false))).toEqual(['p-edit']);
  });

  it('accepts an unchanged world', () => {
    expect(() => checkPlanFresh({ plan, currentStateHash: plan.stateHash, currentProject: TARGET, livePosts: current() })).not.toThrow();
  });

  it('names every key whose remote post changed or vanished', () => {
    const livePosts = current();
    livePosts.set('p-edit', { ...livePosts.get('p-edit')!, updatedAt: '2026-02-02T00:00:00.000Z' });
    livePosts.set('p-gone', null);
    const check = () => checkPlanFresh({ plan, currentStateHash: plan.stateHash, currentProject: TARGET, livePosts });
    expect(check).toThrow(StalePlanError);
    expect(check).toThrow('edit (post changed on the remote), gone (post deleted on the remote)');
  });

  it('refuses a plan made against another state or target', () => {
    expect(() => checkPlanFresh({ plan, currentStateHash: 'f'.repeat(64), currentProject: TARGET, livePosts: current() })).toThrow(
      /state file changed/,
    );
    const other = { ...TARGET, id: 'https://api.example.com/public/v1#demo', apiUrl: 'https://api.example.com/public/v1', local: false };
    try {
      checkPlanFresh({ plan, currentStateHash: plan.stateHash, currentProject: other, livePosts: current() });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(StalePlanError);
      expect((error as StalePlanError).exitCode).toBe(3);
      expect((error as Error).message).toBe('the plan was made for the local API (project demo), not https://api.example.com/public/v1 (project demo)');
    }
  });
});

describe('checkPlanFresh: what it checks', () => {
  const fresh = (plan: Plan, livePosts = new Map()) => () => checkPlanFresh({ plan, currentStateHash: plan.stateHash, currentProject: TARGET, livePosts });

  it('accepts a saved --prune plan that resolves and deletes an interrupted create: no post of it is known yet', () => {
    const pending = { file: 'posts/x.md', idempotencyKey: 'psync-x', payload: { content: 'x', targets: [], mediaIds: [] }, shapeHash: shapeHash(applied), startedAt: '2026-01-01T00:00:00.000Z' };
    const plan = createPlan(planInput({ state: state({ pending: { x: pending } }), prune: true }));
    expect(plan.changes).toMatchObject([{ action: 'delete', postId: null, resumesPending: true }]);
    expect(postIdsToCheck(plan)).toEqual([]);
    expect(fresh(plan)).not.toThrow();
  });

  it('does not check a post the plan only forgets (already deleted on the remote)', () => {
    const plan = createPlan(planInput({ state: section, live: live.filter((post) => post.id !== 'p-gone'), prune: true, desired: [desired('edit', applied), desired('same', applied), desired('kept', applied)] }));
    expect(plan.changes.find((change) => change.key === 'gone')).toMatchObject({ action: 'delete', stateOnly: true, postId: 'p-gone' });
    expect(postIdsToCheck(plan)).toEqual([]);
    expect(fresh(plan)).not.toThrow();
  });

  it('does not check the posts of moves, blocked changes and noops', () => {
    const plan = createPlan(
      planInput({
        state: section,
        live: [livePost('p-edit', applied, { status: 'published' }), ...live.slice(1)],
        desired: [desired('edit', shape({ content: 'x' })), desired('same', applied), desired('moved', applied, { file: 'posts/moved.md' }), desired('kept', applied)],
      }),
    );
    expect(plan.changes.map((change) => change.action).sort()).toEqual(['blocked', 'move', 'noop', 'noop']);
    expect(postIdsToCheck(plan)).toEqual([]);
  });

  it.each([
    ['id', { id: 'local:other' }],
    ['project', { projectId: 'other' }],
    ['kind (local or not)', { local: false }],
  ])('refuses a plan made for a target that differs only in its %s', (_, difference) => {
    const plan = samplePlan();
    const livePosts = new Map(postIdsToCheck(plan).map((id) => [id, live.find((post) => post.id === id) ?? null]));
    expect(() => checkPlanFresh({ plan, currentStateHash: plan.stateHash, currentProject: { ...TARGET, ...difference }, livePosts })).toThrow(/^the plan was made for /);
  });

  it('says what to do about a plan made for another target', () => {
    const plan = samplePlan();
    expect(() => checkPlanFresh({ plan, currentStateHash: plan.stateHash, currentProject: { ...TARGET, projectId: 'other' }, livePosts: new Map() })).toThrow(
      expect.objectContaining({ hint: 'Run `postsync plan` against this target and review the new plan.' }),
    );
  });

  it('names a remote target by its URL and a local one as the local API', () => {
    const plan = { ...samplePlan(), target: { ...TARGET, id: 'https://api.example.com/v1#demo', apiUrl: 'https://api.example.com/v1', local: false } };
    expect(() => checkPlanFresh({ plan, currentStateHash: plan.stateHash, currentProject: TARGET, livePosts: new Map() })).toThrow(
      /^the plan was made for https:\/\/api\.example\.com\/v1 \(project demo\), not the local API \(project demo\)$/,
    );
  });

  it('counts a post missing from what was fetched as deleted', () => {
    const plan = samplePlan();
    expect(fresh(plan)).toThrow('edit (post deleted on the remote), gone (post deleted on the remote)');
  });
});

describe('parsePlan: what it refuses', () => {
  it('names a missing formatVersion, and the source it read', async () => {
    await expect(parsePlan('{}')).rejects.toThrow(/^the plan file has formatVersion missing; this postsync reads formatVersion 1$/);
    await expect(parsePlan('{"formatVersion":"1"}')).rejects.toMatchObject({ message: expect.stringMatching(/has formatVersion "1";/), hint: 'Create it again with `postsync plan --out <file>`.' });
    await expect(parsePlan('null', { source: 'p.json' })).rejects.toThrow(/^p.json has formatVersion missing/);
  });

  it('explains invalid JSON and how to make the file again', async () => {
    const error = (await parsePlan('{ nope', { source: 'p.json' }).catch((caught: unknown) => caught)) as InputError;
    expect(error.message).toMatch(/^p.json is not valid JSON: /);
    expect(error.hint).toBe('Create it again with `postsync plan --out <file>`.');
    expect(error.cause).toBeInstanceOf(SyntaxError);
    const invalid = (await parsePlan('{"formatVersion":1}').catch((caught: unknown) => caught)) as InputError;
    expect(invalid.message).toMatch(/^the plan file is not a valid postsync plan:\n  \(top level\): must have required property '\w+'\n  \(top level\): must have required property/);
    expect(invalid.hint).toBe('Create it again with `postsync plan --out <file>`.');
  });

  it('refuses as stale a plan file written before changes carried a reason code, naming the change', async () => {
    const plan = createPlan(planInput({ desired: [desired('launch', shape())] }));
    const { reason: _reason, ...before } = plan.changes[0]!;
    const error = (await parsePlan(JSON.stringify({ ...plan, changes: [before] }), { source: 'plan.json' }).catch((caught: unknown) => caught)) as StalePlanError;
    expect(error).toBeInstanceOf(StalePlanError);
    expect(error.message).toBe('plan.json was written by an earlier postsync: its change of launch carries no reason code');
    expect(error.hint).toBe('Create it again with `postsync plan --out <file>`.');
  });

  it('refuses as stale a plan file written before changes carried their details (their reasons only as sentences), naming the change', async () => {
    const plan = samplePlan();
    // As the postsync before details wrote it: the sentences where the details stand, nothing else.
    const before = `${JSON.stringify({ ...plan, changes: plan.changes.map(changeWithReasons) }, null, 2)}\n`;
    const error = (await parsePlan(before, { source: 'plan.json' }).catch((caught: unknown) => caught)) as StalePlanError;
    expect(error).toBeInstanceOf(StalePlanError);
    expect(error.message).toBe(`plan.json was written by an earlier postsync: its change of ${plan.changes[0]!.key} carries no reason details`);
    expect(error.hint).toBe('Create it again with `postsync plan --out <file>`.');
  });
});
