import { describe, expect, it } from 'vitest';
import type { ReasonDetail, ReasonDetailCode } from '../../src/plan/reason-details.js';
import type { Change } from '../../src/plan/types.js';
import { changeWithReasons } from '../../src/plan-words/plan-json.js';
import { detailText, reasonSentences } from '../../src/plan-words/reason-words.js';

const PHOTO = '7d1c2b7e-0000-4000-8000-000000000001';
const candidate = (postId: string, differs: string[]) => ({ postId, status: 'draft', createdAt: '2026-01-01T00:00:00.000Z', differs });
const unconfirmed = 'was not written by an apply of this repository (its seal is missing or wrong), so it is not acted on. If that record is right, run';

// Every code's words, in the wording people read today. Typed by the closed set of codes: a code
// added to ReasonDetail without its words here does not compile.
const WORDS: Record<ReasonDetailCode, [ReasonDetail, string][]> = {
  'new-file': [[{ code: 'new-file' }, 'new file']],
  'new-occurrence': [[{ code: 'new-occurrence', date: '2027-01-11' }, 'new occurrence (2027-01-11)']],
  'interrupted-create': [[{ code: 'interrupted-create' }, 'resume an interrupted create']],
  'made-post-found': [[{ code: 'made-post-found', postId: 'p1' }, 'the post it made (p1) is on the remote: taken, the create is not sent again']],
  recreated: [[{ code: 'recreated', appliedAt: '2026-01-02T00:00:00.000Z' }, 'deleted on the remote (last written 2026-01-02T00:00:00.000Z); created again (--recreate)']],
  'deleted-on-remote': [[{ code: 'deleted-on-remote', appliedAt: '2026-01-02T00:00:00.000Z' }, 'deleted on the remote since postsync last wrote it (2026-01-02T00:00:00.000Z); held, not recreated']],
  'recreate-hint': [[{ code: 'recreate-hint', key: 'launch', file: 'posts/launch.md' }, 'recreate it with `postsync apply --recreate launch`, or remove posts/launch.md to forget it']],
  'not-visible-yet': [[{ code: 'not-visible-yet', appliedAt: '2026-01-02T00:00:00.000Z' }, 'written 2026-01-02T00:00:00.000Z, not visible on the remote yet (a read that lags the write): nothing to do']],
  'up-to-date': [[{ code: 'up-to-date' }, 'up to date']],
  'file-changed': [[{ code: 'file-changed', file: 'posts/launch.md', fields: ['content', 'scheduledAt', `targets[${PHOTO}].options.shareToFeed`] }, `changed in posts/launch.md: content, scheduledAt, targets[${PHOTO}].options.shareToFeed`]],
  'also-drifted': [[{ code: 'also-drifted', file: 'posts/launch.md' }, 'also drifted on the remote since the last apply; posts/launch.md wins']],
  drifted: [[{ code: 'drifted', fields: ['content'] }, 'drifted on the remote since the last apply: content']],
  'merged-record': [[{ code: 'merged-record', file: 'posts/launch.md', fields: ['content'] }, 'the state entry was merged from two branches and re-read from the remote: content differ from posts/launch.md']],
  renamed: [[{ code: 'renamed', from: 'posts/launch.md', to: 'posts/2026/launch.md' }, 'renamed posts/launch.md → posts/2026/launch.md']],
  'key-changed': [[{ code: 'key-changed', fromKey: 'launch', key: 'launch-v2', file: 'posts/launch.md' }, 'key changed launch → launch-v2 in posts/launch.md']],
  'file-removed': [
    [{ code: 'file-removed', file: 'posts/launch.md', outcome: 'deleted' }, 'posts/launch.md removed'],
    [{ code: 'file-removed', file: 'posts/launch.md', outcome: 'back-to-draft' }, 'posts/launch.md removed: the post goes back to draft on the remote (--prune deletes it)'],
    [{ code: 'file-removed', file: 'posts/launch.md', outcome: 'kept-as-draft' }, 'posts/launch.md removed: the post stays a draft on the remote (--prune deletes it)'],
    [{ code: 'file-removed', file: 'posts/launch.md', outcome: 'published-kept' }, 'posts/launch.md removed: the post is published and stays as it is (published posts are never deleted)'],
  ],
  'occurrence-removed': [
    [{ code: 'occurrence-removed', date: '2027-03-01', file: 'posts/weekly.md', outcome: 'deleted' }, '2027-03-01 is no longer an occurrence of the repeat in posts/weekly.md'],
    [{ code: 'occurrence-removed', date: '2027-03-08', file: 'posts/weekly.md', outcome: 'back-to-draft' }, '2027-03-08 is no longer an occurrence of the repeat in posts/weekly.md: it goes back to draft on the remote (--prune deletes it)'],
    [{ code: 'occurrence-removed', date: '2027-03-15', file: 'posts/weekly.md', outcome: 'kept-as-draft' }, '2027-03-15 is no longer an occurrence of the repeat in posts/weekly.md: it stays a draft on the remote (--prune deletes it)'],
    [{ code: 'occurrence-removed', date: '2027-03-22', file: 'posts/weekly.md', outcome: 'published-kept' }, '2027-03-22 is no longer an occurrence of the repeat in posts/weekly.md: the post is published and stays as it is (published posts are never deleted)'],
  ],
  'pending-removed': [
    [{ code: 'pending-removed', file: 'posts/x.md', prune: false }, 'posts/x.md removed while its create was interrupted; the create is resolved, then the post goes back to draft (--prune deletes it)'],
    [{ code: 'pending-removed', file: 'posts/x.md', prune: true }, 'posts/x.md removed while its create was interrupted; the create is resolved, then deleted'],
  ],
  'gone-on-remote': [[{ code: 'gone-on-remote' }, 'already deleted on the remote; will be forgotten']],
  'not-editable': [
    [{ code: 'not-editable', status: 'published', verb: 'edited' }, 'post is published; published posts are never edited'],
    [{ code: 'not-editable', status: 'publishing', verb: 'deleted' }, 'post is publishing; only draft and scheduled posts can be deleted'],
  ],
  'account-unavailable': [
    [{ code: 'account-unavailable', account: 'brand-video', why: 'token expired' }, 'account brand-video is unavailable: token expired'],
    [{ code: 'account-unavailable', account: PHOTO, why: null }, `account ${PHOTO} is unavailable: no reason given`],
  ],
  'account-not-connected': [[{ code: 'account-not-connected', account: PHOTO }, `account ${PHOTO} is not connected to this project`]],
  adopted: [
    [{ code: 'adopted', how: 'unowned-match', status: 'draft' }, 'a remote draft with exactly this content, targets, options, media and schedule exists and no state entry owns it: adopted instead of created'],
    [{ code: 'adopted', how: 'unowned-match', status: 'scheduled' }, 'a remote scheduled post with exactly this content, targets, options, media and schedule exists and no state entry owns it: adopted instead of created'],
    [{ code: 'adopted', how: 'tidied-match', status: 'draft' }, 'a remote draft no state entry owns is this post as the service keeps it (blanks, Unicode form, tags, title spacing, schedule to the minute, media order): adopted instead of created'],
    [{ code: 'adopted', how: 'chosen', status: 'scheduled' }, 'the remote scheduled post chosen with --adopt: adopted as it is; the next plan updates it to the file'],
  ],
  'adopt-ambiguous': [
    [{ code: 'adopt-ambiguous', candidates: [candidate('p1', []), candidate('p2', ['media'])] }, 'several remote posts no state entry owns may be this post: p1 (draft, created 2026-01-01T00:00:00.000Z), p2 (draft, created 2026-01-01T00:00:00.000Z; differs in media)'],
    [{ code: 'adopt-ambiguous', candidates: [candidate('p1', [])] }, 'a remote post no state entry owns is this post as the service keeps it, but so may be another new file: p1 (draft, created 2026-01-01T00:00:00.000Z)'],
  ],
  'adopt-uncertain': [[{ code: 'adopt-uncertain', candidates: [{ ...candidate('p-time', ['scheduledAt']), status: 'scheduled' }] }, 'a remote post no state entry owns looks like this post but is not certainly it: p-time (scheduled, created 2026-01-01T00:00:00.000Z; differs in scheduledAt)']],
  'adopt-hint': [[{ code: 'adopt-hint', key: 'launch' }, 'held instead of created: adopt one with `postsync apply --adopt launch=POST_ID`, or create a new post with `postsync apply --recreate launch`']],
  'scheduled-in-past': [[{ code: 'scheduled-in-past', scheduledAt: '2026-02-01T09:00:00.000Z', timezone: 'Europe/Berlin' }, 'scheduledAt Sun 1 Feb 2026, 10:00 (+01:00) is in the past; a post can only be scheduled in the future']],
  slot: [
    [{ code: 'slot', slot: 'Mon 09:00', wall: '2027-01-04 09:00 (Europe/Berlin)', source: 'assigned' }, 'time from slot Mon 09:00: 2027-01-04 09:00 (Europe/Berlin), the earliest free one'],
    [{ code: 'slot', slot: 'Mon 09:00', wall: '2027-01-04 09:00 (Europe/Berlin)', source: 'recorded' }, 'time from slot Mon 09:00: 2027-01-04 09:00 (Europe/Berlin), kept from the last apply'],
  ],
  'file-errors': [
    [{ code: 'file-errors', file: 'posts/a.md', message: 'bad', count: 1 }, 'posts/a.md has an error: bad'],
    [{ code: 'file-errors', file: 'posts/a.md', message: 'first', count: 2 }, 'posts/a.md has errors: first (and 1 more error)'],
    [{ code: 'file-errors', file: 'posts/a.md', message: 'first', count: 3 }, 'posts/a.md has errors: first (and 2 more errors)'],
  ],
  'held-back': [
    [{ code: 'held-back', action: 'create' }, 'the post is not created until it is fixed'],
    [{ code: 'held-back', action: 'update' }, 'the post is not updated until it is fixed'],
    [{ code: 'held-back', action: 'move' }, 'the post is not moved until it is fixed'],
    [{ code: 'held-back', action: 'delete' }, 'the post is left as it is (not deleted) until it is fixed'],
    [{ code: 'held-back', action: 'unschedule' }, 'the post is left as it is (not unscheduled) until it is fixed'],
    [{ code: 'held-back', action: 'noop' }, 'the post is left as it is until it is fixed'],
  ],
  'held-by-rule': [
    [{ code: 'held-by-rule', message: 'rule `nights`: in quiet hours', count: 1, namesRule: true }, 'held by rule `nights`: in quiet hours'],
    [{ code: 'held-by-rule', message: 'no free slot', count: 2, namesRule: false }, 'held by a rule: no free slot (and 1 more error)'],
  ],
  'rule-wait': [
    [{ code: 'rule-wait', create: true }, 'the post is not created while the rule holds it'],
    [{ code: 'rule-wait', create: false }, 'the post is left as it is while the rule holds it'],
  ],
  'project-errors': [
    [{ code: 'project-errors', where: [null], message: 'no config', count: 1 }, 'nothing is applied while the project has an error: no config'],
    [{ code: 'project-errors', where: [null, 'posts'], message: 'no config', count: 2 }, 'nothing is applied while the project, posts have errors: no config'],
  ],
  'unreadable-file': [
    [{ code: 'unreadable-file', gone: 'gone', files: ['posts/x.md', 'posts/y.md'] }, 'gone is gone, but posts/x.md, posts/y.md cannot be read and may be it under a new name; the post is not deleted until those files are fixed'],
    [{ code: 'unreadable-file', gone: 'posts/gone.md', files: ['posts/renamed.md'] }, 'posts/gone.md is gone, but posts/renamed.md cannot be read and may be it under a new name; the post is not deleted until that file is fixed'],
  ],
  'unconfirmed-record': [
    [{ code: 'unconfirmed-record', key: 'old', postId: 'p1', pending: false }, `The state record of "old" (post p1) ${unconfirmed} \`postsync state confirm old\` with the API key; otherwise remove it from the state file.`],
    [{ code: 'unconfirmed-record', key: 'new', postId: null, pending: false }, `The state record of "new" ${unconfirmed} \`postsync state confirm new\` with the API key; otherwise remove it from the state file.`],
    [{ code: 'unconfirmed-record', key: 'x', postId: null, pending: true }, `The interrupted create of "x" in the state ${unconfirmed} \`postsync state confirm x\` with the API key; otherwise remove it from the state file.`],
  ],
  'shared-record': [
    [{ code: 'shared-record', keys: ['launch', 'renamed'], postId: 'p1' }, 'The state records "launch", "renamed" all point at post p1; an apply never leaves two records on one post, so none is acted on. Remove the stale record from the state file.'],
    [{ code: 'shared-record', keys: ['a', 'b'], postId: null }, 'The state records "a", "b" all point at post ?; an apply never leaves two records on one post, so none is acted on. Remove the stale record from the state file.'],
  ],
  'other-calendar': [[{ code: 'other-calendar', postId: 'p1', owner: 'clients/a', key: 'launch' }, 'Post p1 is recorded by the calendar in clients/a of this repository as well, so this calendar does not act on it. If it is that calendar\'s post, remove the record of "launch" from this calendar\'s state file; if it is this one\'s, remove it from the state of clients/a.']],
};

describe('detailText: the words of each reason detail', () => {
  for (const [code, cases] of Object.entries(WORDS)) {
    it(code, () => {
      for (const [detail, words] of cases) {
        expect(detail.code).toBe(code);
        expect(detailText(detail)).toBe(words);
      }
    });
  }
});

describe('reasonSentences and the JSON of a change', () => {
  const change: Change = {
    action: 'update', reason: 'file-changed', key: 'launch', file: 'posts/launch.md', postId: 'p1', desired: { content: 'x', scheduledAt: null, targets: [], media: [] },
    fields: [{ field: 'content', before: 'y', after: 'x' }], liveUpdatedAt: '2026-01-02T00:00:00.000Z',
    details: [{ code: 'file-changed', file: 'posts/launch.md', fields: ['content'] }, { code: 'also-drifted', file: 'posts/launch.md' }], drift: [],
  };

  it('gives one sentence per detail, in order', () => {
    expect(reasonSentences(change)).toEqual(['changed in posts/launch.md: content', 'also drifted on the remote since the last apply; posts/launch.md wins']);
  });

  it('shows the sentences as `reasons` where the details stand, every other field as it is', () => {
    const shown = changeWithReasons(change);
    expect(Object.keys(shown)).toEqual(['action', 'reason', 'key', 'file', 'postId', 'desired', 'fields', 'liveUpdatedAt', 'reasons', 'drift']);
    expect(shown).toEqual({ ...change, details: undefined, reasons: reasonSentences(change) });
    expect(JSON.stringify(shown)).not.toContain('details');
  });
});

describe('reason words for people: an account-specific field by the account’s name', () => {
  const OTHER = '7d1c2b7e-0000-4000-8000-000000000009';
  const fields = ['content', `targets[${PHOTO}].contentOverride`, `targets[${PHOTO}].options.shareToFeed`, `targets[${OTHER}].contentOverride`];
  const change = { details: [{ code: 'file-changed', file: 'posts/launch.md', fields }, { code: 'drifted', fields: [`targets[${PHOTO}].contentOverride`] }] } satisfies Pick<Change, 'details'>;

  it('names a known account by its alias; an unknown one keeps its field path', () => {
    expect(reasonSentences(change, { accounts: new Map([[PHOTO, 'brand-photo']]) })).toEqual([
      `changed in posts/launch.md: content, content for brand-photo, shareToFeed for brand-photo, targets[${OTHER}].contentOverride`,
      'drifted on the remote since the last apply: content for brand-photo',
    ]);
  });

  it('keeps the field paths without names (the JSON and the plan file: data for tools)', () => {
    expect(reasonSentences(change)[0]).toBe(`changed in posts/launch.md: ${fields.join(', ')}`);
  });
});
