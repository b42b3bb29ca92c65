import { describe, expect, it } from 'vitest';
import type { DesiredPost } from '../../src/content/types.js';
import { livePostsById } from '../../src/plan/plan-context.js';
import { planPosts } from '../../src/plan/plan-posts.js';
import { stateSectionHash } from '../../src/state/state-file.js';
import { desired, livePost, owning, PHOTO, shape, SHORT, TARGET } from '../helpers/fixtures.js';
import { calendarFor, capabilities, NOW } from './fixtures.js';

describe('the calendar model', () => {
  it('places a post on its day and time in the project time zone, also across a DST change', () => {
    // Europe/Berlin moves to summer time on 28 March 2027 at 02:00 (01:00 UTC).
    const model = calendarFor({
      posts: [
        desired('before', shape({ scheduledAt: '2027-03-27T23:30:00.000Z' })),
        desired('after', shape({ scheduledAt: '2027-03-28T01:30:00.000Z' })),
      ],
    });
    const slots = Object.fromEntries(model.posts.map((post) => [post.key, post.slot]));
    expect(slots.before).toEqual({ at: '2027-03-27T23:30:00.000Z', day: '2027-03-28', time: '00:30', offset: '+01:00' });
    expect(slots.after).toEqual({ at: '2027-03-28T01:30:00.000Z', day: '2027-03-28', time: '03:30', offset: '+02:00' });
    // The page opens on today (the project's zone), not on the first post.
    expect(model.initial).toEqual({ month: '2026-11', week: '2026-11-16' });
    expect(model.today).toBe('2026-11-20');
  });

  it('shows a moved post in its new slot with its old one, and an unscheduled one in the tray with the slot it leaves', () => {
    const applied = { moved: shape({ scheduledAt: '2027-01-05T09:00:00.000Z' }), dropped: shape({ scheduledAt: '2027-01-06T09:00:00.000Z' }) };
    const model = calendarFor({
      posts: [desired('moved', { ...applied.moved, scheduledAt: '2027-01-12T17:00:00.000Z' }), desired('dropped', { ...applied.dropped, scheduledAt: null })],
      remote: [livePost('p1', applied.moved), livePost('p2', applied.dropped)],
      owned: owning({ moved: ['p1', applied.moved], dropped: ['p2', applied.dropped] }),
    });
    // In time order: the tray's post by the slot it leaves.
    expect(model.posts.map((post) => post.key)).toEqual(['dropped', 'moved']);
    const [dropped, moved] = model.posts;
    expect(moved).toMatchObject({ key: 'moved', overlay: 'moved', status: 'scheduled', slot: { day: '2027-01-12', time: '18:00' }, previous: { day: '2027-01-05', time: '10:00' } });
    expect(moved!.change).toMatchObject({ action: 'update', fields: [{ field: 'scheduledAt', before: 'Tue 5 Jan 2027, 10:00 (+01:00)', after: 'Tue 12 Jan 2027, 18:00 (+01:00)' }] });
    expect(dropped).toMatchObject({ key: 'dropped', overlay: 'unscheduled', slot: null, draft: true, previous: { day: '2027-01-06' } });
    expect(model.summary).toMatchObject({ moved: 1, unscheduled: 1, new: 0, unchanged: 0 });
  });

  it('keeps a ghost of a post on the day it really publishes when its move is blocked (a house rule holds the new time)', () => {
    const applied = shape({ scheduledAt: '2027-01-05T09:00:00.000Z' });
    const rule = { severity: 'error' as const, code: 'rule-max-per-day', message: 'rule `daily`: the 2nd post on photo on 2027-01-12; at most 1 a day', file: 'posts/held.md', key: 'held' };
    // As the pipeline plans a post a schedule rule holds: not among the posts, held back.
    const heldAt = (post: DesiredPost) => {
      const owned = owning({ held: ['p1', applied] });
      const remote = [livePost('p1', applied)];
      const plan = planPosts({ project: TARGET, desired: { posts: [], held: [{ file: 'posts/held.md', key: 'held' }], invalid: [], contentDiagnostics: [rule], checkDiagnostics: [] }, state: { section: owned, hash: stateSectionHash(owned) }, remote: { live: livePostsById(remote), capabilities: new Map([[PHOTO, capabilities(PHOTO, { maxLength: 100, lengthUnit: 'characters' } as never)]]) }, prune: false, now: NOW, timezone: 'Europe/Berlin' });
      return calendarFor({ posts: [post], remote, owned, plan, diagnostics: [rule] }).posts;
    };
    expect(heldAt(desired('held', { ...applied, scheduledAt: '2027-01-12T17:00:00.000Z' }))).toMatchObject([{ key: 'held', overlay: 'blocked', status: 'scheduled', slot: { day: '2027-01-12', time: '18:00' }, previous: { day: '2027-01-05', time: '10:00' } }]);
    // Blocked where the remote already has it: no ghost.
    expect(heldAt(desired('held', { ...applied, content: 'New words' }))).toMatchObject([{ key: 'held', overlay: 'blocked', previous: null }]);
  });

  it('shows a removed file\'s scheduled post leaving its slot (back to draft), and leaves out what is only forgotten', () => {
    const gone = shape({ scheduledAt: '2027-01-08T11:00:00.000Z', content: 'Weekend special' });
    const model = calendarFor({
      posts: [],
      remote: [livePost('p1', gone)],
      owned: owning({ gone: ['p1', gone], 'deleted-remotely': ['p9', gone] }),
    });
    expect(model.posts).toHaveLength(1);
    expect(model.posts[0]!).toMatchObject({ key: 'gone', file: 'posts/gone.md', overlay: 'unscheduled', text: 'Weekend special', status: 'scheduled', previous: { day: '2027-01-08', time: '12:00' }, change: { action: 'unschedule' } });
    expect(model.summary).toMatchObject({ unscheduled: 1, deleted: 0 });
  });

  it('previews each account: its own text, the length in its unit and the cut at its limit', () => {
    const text = 'é'.repeat(12);
    const model = calendarFor({
      posts: [desired('long', shape({ content: text, targets: [{ socialAccountId: PHOTO, options: { format: 'feed', shareToFeed: true } }, { socialAccountId: SHORT, contentOverride: 'Short one', options: { shortBAllowComment: false } }] }))],
      capabilities: new Map([
        [PHOTO, capabilities(PHOTO, { maxLength: 20, lengthUnit: 'bytes', requiredExcept: 'always' })],
        [SHORT, capabilities(SHORT, { maxLength: 100, lengthUnit: 'utf16', requiredExcept: 'always' })],
      ]),
    });
    const [photo, short] = model.posts[0]!.targets;
    // 12 × 2 bytes = 24 > 20: ten characters fit.
    expect(photo).toMatchObject({ label: 'brand-photo', override: false, length: 24, shown: 'é'.repeat(10), overflow: 'éé', options: [{ name: 'format', value: 'feed' }, { name: 'shareToFeed', value: 'yes' }] });
    expect(short).toMatchObject({ label: 'brand-short', override: true, length: 9, shown: 'Short one', overflow: '', options: [{ name: 'shortBAllowComment', value: 'no' }] });
    // A caption that is the post's text whole is not copied.
    const plain = calendarFor({ posts: [desired('plain', shape({ content: 'Hi' }))] }).posts[0]!.targets[0]!;
    expect(plain).toEqual({ account: PHOTO, label: 'brand-photo', status: null, override: false, overflow: '', length: 2, options: [] });
    expect(model.accounts.map((account) => [account.label, account.platform, account.maxLength, account.unitWord, account.color])).toEqual([
      ['brand-photo', 'photoC', 20, 'bytes (UTF-8)', 0],
      ['brand-short', 'shortB', 100, 'UTF-16 code units', 1],
    ]);
  });

  it('attaches each file its problems, and lists files that yield no post apart', () => {
    const model = calendarFor({
      posts: [desired('draft', shape({ targets: [] }))],
      diagnostics: [
        { severity: 'warning', code: 'w', message: 'a warning', file: 'posts/draft.md', line: 2 },
        // What the checks say of a draft without accounts: it is not ready to schedule.
        { severity: 'warning', code: 'schedule-without-targets', message: 'not ready to schedule: needs an account under `targets:`', file: 'posts/draft.md', readiness: true },
        { severity: 'error', code: 'yaml-syntax', message: 'broken', file: 'posts/broken.md', line: 3 },
      ],
    });
    expect(model.posts[0]).toMatchObject({ key: 'draft', draft: true, ready: false, errors: 0, diagnostics: expect.arrayContaining([expect.objectContaining({ message: 'a warning' })]) });
    expect(model.problems).toEqual([{ severity: 'error', code: 'yaml-syntax', message: 'broken', file: 'posts/broken.md', line: 3 }]);
  });

  it('marks only the occurrence of a repeat a problem is about; a problem of the whole file marks each occurrence', () => {
    const weekly = (date: string) => ({ ...desired(`weekly@${date}`, shape({ scheduledAt: `${date}T09:00:00.000Z` })), file: 'posts/weekly.md' });
    const model = calendarFor({
      posts: [weekly('2027-02-01'), weekly('2027-02-08'), weekly('2027-02-15')],
      diagnostics: [
        { severity: 'error', code: 'house-rule', message: 'rule `daily`: the 2nd post on photo on 2027-02-08', file: 'posts/weekly.md', key: 'weekly@2027-02-08' },
        { severity: 'warning', code: 'w', message: 'a warning of the file', file: 'posts/weekly.md' },
      ],
    });
    expect(model.posts.map((post) => [post.key, post.errors, post.diagnostics.length])).toEqual([
      ['weekly@2027-02-01', 0, 1],
      ['weekly@2027-02-08', 1, 2],
      ['weekly@2027-02-15', 0, 1],
    ]);
  });

  it('places a draft where its file pencils it in (draft: true with a time), without a slot', () => {
    const model = calendarFor({ posts: [{ ...desired('idea', shape()), pencilledAt: '2027-02-09T17:45:00.000Z' }] });
    expect(model.posts[0]).toMatchObject({ key: 'idea', slot: null, draft: true, pencilled: { day: '2027-02-09', time: '18:45' } });
    expect(model.totals).toMatchObject({ scheduled: 0, unscheduled: 1 });
  });

  it('without the remote, takes statuses from the state file and has no plan', () => {
    const applied = shape({ scheduledAt: '2027-01-05T09:00:00.000Z' });
    const model = calendarFor({
      posts: [desired('same', applied), desired('edited', { ...applied, content: 'New text' }), desired('new', applied)],
      owned: owning({ same: ['p1', applied], edited: ['p2', applied] }),
      plan: null,
      live: null,
      offlineReason: 'no answer',
    });
    expect(model.source).toBe('state');
    expect(model.summary).toBeNull();
    expect(Object.fromEntries(model.posts.map((post) => [post.key, [post.status, post.overlay]]))).toEqual({ same: ['applied', null], edited: ['edited since applied', null], new: ['not applied', null] });
  });

  it('keeps posts in --from/--to (and every unscheduled one), and opens on the first change', () => {
    const model = calendarFor({
      posts: [desired('dec', shape({ scheduledAt: '2026-12-10T09:00:00.000Z' })), desired('jan', shape({ scheduledAt: '2027-01-10T09:00:00.000Z' })), desired('draft', shape())],
      range: { from: '2027-01-01T00:00:00.000Z', to: null },
    });
    expect(model.posts.map((post) => post.key)).toEqual(['jan', 'draft']);
    expect(model.initial.month).toBe('2027-01');
    expect(NOW < new Date(model.posts[0]!.slot!.at)).toBe(true);
  });
});
