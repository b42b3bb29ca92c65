import { describe, expect, it } from 'vitest';
import { createPlan } from '../../src/plan/planner.js';
import { mergeStates } from '../../src/state/merge.js';
import type { StateFile, ProjectState } from '../../src/state/types.js';
import { ID, file, post, postsOf } from './merge-fixtures.js';
import { desired, livePost, planInput, record, shape, state } from '../helpers/fixtures.js';


describe('mergeStates', () => {
  it('keeps every entry either side added, and removals made on one side only', () => {
    const base = file({ a: post('p-a', '2027-01-01T00:00:00.000Z'), gone: post('p-gone', '2027-01-01T00:00:00.000Z') });
    const ours = file({ a: post('p-a', '2027-01-01T00:00:00.000Z'), b: post('p-b', '2027-01-02T00:00:00.000Z') });
    const theirs = file({ ...base.targets[ID]!.posts, c: post('p-c', '2027-01-03T00:00:00.000Z') });
    const { state: merged, notes } = mergeStates(base, ours, theirs);
    expect(Object.keys(postsOf(merged))).toEqual(['a', 'b', 'c']);
    expect(postsOf(merged).a).toEqual(post('p-a', '2027-01-01T00:00:00.000Z'));
    expect(notes).toEqual([]);
  });

  it('marks an entry both sides changed for a re-read, keeping the later record, and names a post id left behind', () => {
    const base = file({ a: post('p-a', '2027-01-01T00:00:00.000Z') });
    const ours = file({ a: post('p-a', '2027-01-05T00:00:00.000Z', { appliedHash: 'b'.repeat(64) }) });
    const theirs = file({ a: post('p-a2', '2027-01-04T00:00:00.000Z') });
    const { state: merged, notes } = mergeStates(base, ours, theirs);
    expect(postsOf(merged).a).toEqual({ ...post('p-a', '2027-01-05T00:00:00.000Z', { appliedHash: 'b'.repeat(64) }), reread: true });
    expect(notes.map((note) => note.message)).toEqual([
      'changed on both branches; kept the later record, marked to be re-read from the remote on the next plan',
      'post p-a2 of the other branch is no longer owned by the state; if it duplicates post p-a, delete it in the service',
    ]);
    // A change on one side and a removal on the other is a change on both: the record stays, to be re-read.
    const removed = mergeStates(base, file({}), theirs).state;
    expect(postsOf(removed).a).toEqual({ ...post('p-a2', '2027-01-04T00:00:00.000Z'), reread: true });
  });

  it('lets a confirmed post win over a create still pending on the other side', () => {
    const pending = { file: 'posts/n.md', idempotencyKey: 'idem-n', payload: { content: 'n', targets: [], mediaIds: [] }, shapeHash: 'c'.repeat(64), startedAt: '2027-01-01T00:00:00.000Z' };
    const base = file({});
    const ours = file({}, { pending: { n: pending } });
    const theirs = file({ n: post('p-n', '2027-01-02T00:00:00.000Z') });
    const { state: merged } = mergeStates(base, ours, theirs);
    expect(merged.targets[ID]!.pending).toEqual({});
    expect(postsOf(merged).n).toMatchObject({ postId: 'p-n', reread: true });
  });

  it('takes sections of other targets from whichever side has them, and works without an ancestor', () => {
    const local: ProjectState = { apiUrl: 'local', projectId: 'demo', posts: { x: post('p-x', '2027-01-01T00:00:00.000Z') }, media: {}, pending: {}, uploads: {} };
    const ours = file({ a: post('p-a', '2027-01-01T00:00:00.000Z') });
    const theirs: StateFile = { version: 1, targets: { 'local:demo': local } };
    const { state: merged } = mergeStates(null, ours, theirs);
    expect(Object.keys(merged.targets)).toEqual([ID, 'local:demo']);
    expect(merged.targets['local:demo']).toEqual(local);
  });
});

describe('the planner and a re-read entry', () => {
  const applied = shape({ content: 'Launch day' });

  it('shows a post that matches its file as up to date, whatever the merged record\'s hash says', () => {
    // The record's hash and time stamp come from the other branch: the remote post matches the file.
    const marked = state({ posts: { launch: { ...record('p1', shape({ content: 'Other branch' }), 'posts/launch.md'), reread: true } } });
    const live = livePost('p1', applied);
    const same = createPlan(planInput({ desired: [desired('launch', applied)], state: marked, live: [live] }));
    expect(same.changes.map((change) => change.action)).toEqual(['noop']);
  });

  it('never takes the untouched fast path for it, and updates what differs with its own reason', () => {
    const marked = state({ posts: { launch: { ...record('p1', applied, 'posts/launch.md'), reread: true } } });
    // Same updatedAt and the same hash: unmarked, this post would be a noop without a look at its content.
    const live = livePost('p1', shape({ content: 'Edited on the other branch' }));
    const [change] = createPlan(planInput({ desired: [desired('launch', applied)], state: marked, live: [live] })).changes;
    expect(change).toMatchObject({ action: 'update', reason: 'merged-record', details: [{ code: 'merged-record', file: 'posts/launch.md', fields: ['content'] }] });
  });
});

describe('mergeStates: entries both sides changed', () => {
  const base = file({ a: post('p-a', '2027-01-01T00:00:00.000Z') });

  it('keeps the later record whichever side holds it, ours on a tie, and names the post id the other side held', () => {
    const theirsLater = mergeStates(base, file({ a: post('p-a', '2027-01-04T00:00:00.000Z') }), file({ a: post('p-a2', '2027-01-05T00:00:00.000Z') }));
    expect(postsOf(theirsLater.state).a).toEqual({ ...post('p-a2', '2027-01-05T00:00:00.000Z'), reread: true });
    expect(theirsLater.notes.map((note) => note.message)).toEqual([
      'changed on both branches; kept the later record, marked to be re-read from the remote on the next plan',
      'post p-a of the other branch is no longer owned by the state; if it duplicates post p-a2, delete it in the service',
    ]);
    const tie = mergeStates(base, file({ a: post('p-ours', '2027-01-04T00:00:00.000Z') }), file({ a: post('p-theirs', '2027-01-04T00:00:00.000Z') }));
    expect(postsOf(tie.state).a).toMatchObject({ postId: 'p-ours', reread: true });
  });

  it('gives its notes, and its entries, in key order whatever order the sides list them in', () => {
    const changed = (at: string) => file({ b: post('p-b', at), a: post('p-a', at) });
    const { state: merged, notes } = mergeStates(file({ b: post('p-b', '2027-01-01T00:00:00.000Z'), a: post('p-a', '2027-01-01T00:00:00.000Z') }), changed('2027-01-02T00:00:00.000Z'), changed('2027-01-03T00:00:00.000Z'));
    expect(notes.map((note) => note.key)).toEqual(['a', 'b']);
    expect(Object.keys(postsOf(merged))).toEqual(['a', 'b']);
    const targets = mergeStates(null, { version: 1, targets: { 'local:demo': file({}).targets[ID]! } }, file({}));
    expect(Object.keys(targets.state.targets)).toEqual([ID, 'local:demo']);
  });

  it('names the Idempotency-Key of the pending create a confirmed post wins over', () => {
    const pending = { file: 'posts/n.md', idempotencyKey: 'idem-n', payload: { content: 'n', targets: [], mediaIds: [] }, shapeHash: 'c'.repeat(64), startedAt: '2027-01-01T00:00:00.000Z' };
    const confirmed = file({ n: post('p-n', '2027-01-02T00:00:00.000Z') });
    const message = 'one branch confirmed this post, the other still had a create pending (Idempotency-Key idem-n); kept the post, marked to be re-read';
    expect(mergeStates(file({}), file({}, { pending: { n: pending } }), confirmed).notes).toEqual([{ targetId: ID, section: 'pending', key: 'n', message }]);
    expect(mergeStates(file({}), confirmed, file({}, { pending: { n: pending } })).notes).toEqual([{ targetId: ID, section: 'pending', key: 'n', message }]);
  });

  it('keeps the later pending create, media record and multipart upload, each with a note', () => {
    const sha = 'd'.repeat(64);
    const pendingAt = (startedAt: string, idempotencyKey: string) => ({ file: 'posts/n.md', idempotencyKey, payload: { content: 'n', targets: [], mediaIds: [] }, shapeHash: 'c'.repeat(64), startedAt });
    const mediaAt = (uploadedAt: string, mediaId: string) => ({ mediaId, sizeBytes: 1, contentType: 'image/png', uploadedAt });
    const uploadAt = (startedAt: string, mediaId: string) => ({ mediaId, partSizeBytes: 5, partCount: 2, startedAt });
    const ancestor = file({}, { pending: { n: pendingAt('2027-01-01T00:00:00.000Z', 'k0') }, media: { [sha]: mediaAt('2027-01-01T00:00:00.000Z', 'm0') }, uploads: { [sha]: uploadAt('2027-01-01T00:00:00.000Z', 'u0') } });
    const ours = file({}, { pending: { n: pendingAt('2027-01-03T00:00:00.000Z', 'k1') }, media: { [sha]: mediaAt('2027-01-02T00:00:00.000Z', 'm1') }, uploads: { [sha]: uploadAt('2027-01-02T00:00:00.000Z', 'u1') } });
    const theirs = file({}, { pending: { n: pendingAt('2027-01-02T00:00:00.000Z', 'k2') }, media: { [sha]: mediaAt('2027-01-03T00:00:00.000Z', 'm2') }, uploads: { [sha]: uploadAt('2027-01-03T00:00:00.000Z', 'u2') } });
    const { state: merged, notes } = mergeStates(ancestor, ours, theirs);
    const section = merged.targets[ID]!;
    expect(section.pending.n?.idempotencyKey).toBe('k1');
    expect(section.media[sha]?.mediaId).toBe('m2');
    // A finished upload needs no resuming: the multipart progress of the same file is dropped.
    expect(section.uploads).toEqual({});
    expect(notes.map((note) => [note.section, note.message])).toEqual([
      ['pending', 'interrupted create changed on both branches; kept the later one'],
      ['media', 'uploaded on both branches; kept the later upload'],
      ['uploads', 'multipart upload changed on both branches; kept the later one'],
    ]);
    const unfinished = mergeStates({ ...ancestor, targets: { [ID]: { ...ancestor.targets[ID]!, media: {} } } }, file({}, { uploads: ours.targets[ID]!.uploads }), file({}, { uploads: theirs.targets[ID]!.uploads }));
    expect(unfinished.state.targets[ID]!.uploads[sha]?.mediaId).toBe('u2');
  });
});
