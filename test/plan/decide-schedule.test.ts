import { describe, expect, it } from 'vitest';
import type { QuietHoursRule } from '../../src/config/house-rule-types.js';
import { parseSlot } from '../../src/config/slots-section.js';
import type { DesiredPost } from '../../src/content/types.js';
import { livePostsById } from '../../src/plan/plan-context.js';
import type { PostShape } from '../../src/content/types.js';
import { at, rule, ZONE } from '../house-rules/rule-fixtures.js';
import { nights, decide } from './schedule-policy-fixtures.js';
import { desired, livePost, PHOTO, record, shape, state, VIDEO } from '../helpers/fixtures.js';
import type { Post } from '../../src/api/types.js';

// decideSchedule's rules one at a time (test/plan/schedule-policy.test.ts shows them together).


function timed(when: string | null, targets: PostShape['targets'] = [{ socialAccountId: PHOTO, options: {} }]): PostShape {
  return shape({ scheduledAt: when === null ? null : at(when), targets });
}

function post(key: string, when: string | null, postShape: PostShape = timed(when)): DesiredPost {
  const made = desired(key, postShape);
  return { ...made, targetLabels: made.targetLabels.map(() => 'photo'), locations: { targets: made.shape.targets.map(() => null), media: [], body: { line: 5, column: 1 }, schedule: { line: 2, column: 14 } } };
}

function slotPost(key: string, targets?: PostShape['targets']): DesiredPost {
  return { ...post(key, null, timed(null, targets)), slot: { at: { line: 2, column: 14 } } };
}

/** A post whose time is written on line 3. */
function writtenAt3(key: string, when: string): DesiredPost {
  const made = post(key, when);
  return { ...made, locations: { ...made.locations!, schedule: { line: 3, column: 1 } } };
}


/** Which posts a clash reports (the others stand), and which are held back. */
const reported = (result: ReturnType<typeof decide>) => result.diagnostics.map((d) => (d as { key?: string }).key);
const heldKeys = (result: ReturnType<typeof decide>) => result.held.map((h) => h.key);

describe('decideSchedule: which posts the schedule rules see', () => {
  it('passes posts through untouched when there is no schedule rule and no next-slot post', () => {
    const posts = [post('a', '2027-01-04 23:00'), writtenAt3('u', '2027-01-05 23:00')];
    const result = decide({ config: { rules: [], slots: {}, timezone: ZONE, accounts: {} }, posts });
    expect(result).toEqual({ posts, diagnostics: [], held: [] });
  });

  it('gives a next-slot post without accounts no slot: it has nowhere to go, and the accounts check reports that', () => {
    const lonely = slotPost('lonely', []);
    const result = decide({ posts: [lonely] });
    expect(result).toEqual({ posts: [lonely], diagnostics: [], held: [] });
  });

  it('checks a post at the very instant of planning no more: it is published or about to be', () => {
    const late = at('2027-01-03 23:00');
    const result = decide({ now: new Date(late), posts: [post('now', '2027-01-03 23:00'), post('later', '2027-01-04 23:30')] });
    expect(reported(result)).toEqual(['later']);
    expect(result.posts.map((p) => p.key)).toEqual(['now']);
  });

  it('holds back only for errors: a rule of severity warning is reported, and the post goes on', () => {
    const soft = { ...nights, severity: 'warning' as const };
    const result = decide({ config: { rules: [soft], slots: {}, timezone: ZONE, accounts: {} }, posts: [post('late', '2027-01-04 23:30'), writtenAt3('u', '2027-01-05 12:00')] });
    expect(result.diagnostics.map((d) => [d.severity, (d as { key?: string }).key])).toEqual([['warning', 'late']]);
    expect(result.posts.map((p) => p.key)).toEqual(['late', 'u']);
    expect(result.held).toEqual([]);
  });

  it('holds back a post that breaks a rule, and names it as held', () => {
    const result = decide({ posts: [post('a', '2027-01-04 12:00'), writtenAt3('u', '2027-01-05 23:00'), writtenAt3('v', '2027-01-06 12:00')] });
    expect(reported(result)).toEqual(['u']);
    expect(result.posts.map((p) => p.key)).toEqual(['a', 'v']);
    expect(result.held).toEqual([{ file: 'posts/u.md', key: 'u' }]);
  });

  it('reports where a post writes its time', () => {
    const result = decide({ posts: [writtenAt3('u', '2027-01-05 23:00')] });
    expect(result.diagnostics[0]).toMatchObject({ file: 'posts/u.md', line: 3, column: 1 });
  });

  it('names an account in messages by its first alias in postsync.yaml', () => {
    const config = { rules: [nights], slots: {}, timezone: ZONE, accounts: { brand: PHOTO, photo: PHOTO } };
    const result = decide({ config, posts: [{ ...writtenAt3('u', '2027-01-05 23:00'), targetLabels: [] }] });
    expect(result.diagnostics[0]!.message).toBe('rule `nights`: 23:00 is in the quiet hours 22:00–07:00 (brand)');
  });
});

describe('decideSchedule: a post as applied stands, a changed one gives way', () => {
  const applied = timed('2027-01-05 10:00');
  const owned = (postShape: PostShape, live?: Post) => ({
    state: state({ posts: { owned: record('p-owned', postShape, 'posts/owned.md') } }),
    ...(live === undefined ? {} : { live: livePostsById([live]) }),
  });

  it('reports the new post, not the applied one, even when the new one comes first in time', () => {
    const result = decide({ posts: [post('owned', '2027-01-05 10:00', applied), post('new', '2027-01-05 09:00')], ...owned(applied) });
    expect(reported(result)).toEqual(['new']);
  });

  it('among new posts, the earlier one stands', () => {
    expect(reported(decide({ posts: [post('b', '2027-01-05 10:00'), post('a', '2027-01-05 09:00')] }))).toEqual(['b']);
  });

  it('takes a post whose text changed but whose time and accounts are as on the remote as applied', () => {
    const edited = { ...applied, content: 'Edited' };
    const live = livePost('p-owned', applied, { status: 'scheduled' });
    const result = decide({ posts: [post('owned', '2027-01-05 10:00', edited), post('new', '2027-01-05 09:00')], ...owned(applied, live) });
    expect(reported(result)).toEqual(['new']);
  });

  it('takes accounts in any order when comparing with the remote post', () => {
    const both: PostShape['targets'] = [{ socialAccountId: VIDEO, options: {} }, { socialAccountId: PHOTO, options: {} }];
    const was = timed('2027-01-05 10:00', both);
    const live = livePost('p-owned', was, { status: 'scheduled' });
    const edited = { ...was, content: 'Edited' };
    const reversed = { ...live, targets: [...live.targets].reverse() };
    for (const remote of [live, reversed]) {
      const result = decide({ posts: [post('owned', '2027-01-05 10:00', edited), post('new', '2027-01-05 09:00')], ...owned(was, remote) });
      expect(reported(result)).toEqual(['new']);
    }
  });

  it('takes a post as changed when the remote has another time, other accounts, or no such post', () => {
    const edited = { ...applied, content: 'Edited' };
    const remotes = [
      livePost('p-owned', timed('2027-01-05 11:00'), { status: 'scheduled' }),
      livePost('p-owned', timed('2027-01-05 10:00', [{ socialAccountId: PHOTO, options: {} }, { socialAccountId: VIDEO, options: {} }]), { status: 'scheduled' }),
      livePost('p-owned', { ...applied, targets: [{ socialAccountId: VIDEO, options: {} }] }, { status: 'scheduled' }),
      undefined,
    ];
    // Same number of accounts, one of them another.
    const pair: PostShape['targets'] = [{ socialAccountId: PHOTO, options: {} }, { socialAccountId: VIDEO, options: {} }];
    const onPair = timed('2027-01-05 10:00', pair);
    const elsewhere = livePost('p-owned', timed('2027-01-05 10:00', [{ socialAccountId: PHOTO, options: {} }, { socialAccountId: 'other-account', options: {} }]), { status: 'scheduled' });
    const swapped = decide({ posts: [post('owned', '2027-01-05 10:00', { ...onPair, content: 'Edited' }), post('new', '2027-01-05 09:00')], ...owned(onPair, elsewhere) });
    expect(reported(swapped)).toEqual(['owned']);
    for (const remote of remotes) {
      const result = decide({ posts: [post('owned', '2027-01-05 10:00', edited), post('new', '2027-01-05 09:00')], ...owned(applied, remote) });
      expect(reported(result), JSON.stringify(remote?.targets)).toEqual(['owned']);
    }
  });

  it('keeps a recorded slot and reports the new post that clashes with it', () => {
    const slotted = { ...record('p-s', timed('2027-01-04 09:00'), 'posts/s.md'), slotAt: at('2027-01-04 09:00'), appliedHash: 'changed' };
    const result = decide({ posts: [slotPost('s'), post('new', '2027-01-04 08:30')], state: state({ posts: { s: slotted } }) });
    expect(reported(result)).toEqual(['new']);
    expect(result.posts.map((p) => [p.key, p.slot?.taken?.source])).toEqual([['s', 'recorded']]);
    expect(heldKeys(result)).toEqual(['new']);
  });

  it('reports a recorded slot that now breaks a rule, and holds it back', () => {
    const early = rule<QuietHoursRule>({ kind: 'quietHours', name: 'mornings', from: 8 * 60, to: 10 * 60 });
    const slotted = { ...record('p-s', timed('2027-01-04 09:00'), 'posts/s.md'), slotAt: at('2027-01-04 09:00') };
    const config = { rules: [early], slots: { [PHOTO]: ['Mon 09:00', 'Thu 17:30'].flatMap((text) => parseSlot(text)!) }, timezone: ZONE, accounts: { photo: PHOTO } };
    const result = decide({ config, posts: [slotPost('s')], state: state({ posts: { s: slotted } }) });
    expect(reported(result)).toEqual(['s']);
    expect(heldKeys(result)).toEqual(['s']);
  });

  it('checks a recorded slot at the very instant of planning no more', () => {
    const slotted = { ...record('p-s', timed('2027-01-03 23:00'), 'posts/s.md'), slotAt: at('2027-01-03 23:00') };
    const result = decide({ now: new Date(at('2027-01-03 23:00')), posts: [slotPost('s')], state: state({ posts: { s: slotted } }) });
    expect(result.diagnostics).toEqual([]);
    expect(result.posts.map((p) => p.slot?.taken?.source)).toEqual(['recorded']);
  });

  it('checks a recorded slot whose time has passed no more', () => {
    const past = { ...record('p-s', timed('2027-01-03 06:00'), 'posts/s.md'), slotAt: at('2027-01-03 06:00') };
    const result = decide({ posts: [slotPost('s')], state: state({ posts: { s: past } }) });
    expect(result.diagnostics).toEqual([]);
    expect(result.posts.map((p) => [p.key, p.shape.scheduledAt])).toEqual([['s', at('2027-01-03 06:00')]]);
  });
});

describe('decideSchedule: owned posts no file stands for', () => {
  const gone = timed('2027-01-05 10:00');
  const live = livePostsById([livePost('p-gone', gone, { status: 'scheduled' })]);
  const owned = state({ posts: { gone: record('p-gone', gone, 'posts/gone.md') } });

  it('counts a removed file\'s post no more: it goes back to draft, or --prune deletes it', () => {
    for (const prune of [false, true]) expect(reported(decide({ posts: [post('new', '2027-01-05 11:00')], state: owned, live, prune }))).toEqual([]);
  });

  it('counts the post of a broken file, and a removed file\'s while any file is broken (it may be that file renamed)', () => {
    for (const brokenFiles of [new Set(['posts/gone.md']), new Set(['posts/unreadable.md'])]) {
      expect(reported(decide({ posts: [post('new', '2027-01-05 11:00')], state: owned, live, prune: true, brokenFiles }))).toEqual(['new']);
    }
  });

  it('never counts a renamed post\'s former key: a post does not clash with itself', () => {
    const renamed = post('gone-renamed', '2027-01-05 10:00', gone);
    expect(reported(decide({ posts: [renamed], state: owned, live }))).toEqual([]);
  });

  it('frees the old time of a post whose file moves it: only its new time counts', () => {
    const moved = timed('2027-01-05 15:00');
    const result = decide({ posts: [post('gone', '2027-01-05 15:00', moved), post('new', '2027-01-05 11:00')], state: owned, live });
    expect(reported(result)).toEqual([]);
    const stays = decide({ posts: [post('gone', '2027-01-05 15:00'), post('new', '2027-01-05 11:00')], state: owned, live });
    expect(reported(stays)).toEqual([]);
  });

  it('counts only posts the remote still has scheduled', () => {
    const draft = livePostsById([livePost('p-gone', timed(null))]);
    expect(reported(decide({ posts: [post('new', '2027-01-05 11:00')], state: owned, live: draft }))).toEqual([]);
  });
});
