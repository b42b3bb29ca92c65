import { plural } from '../media/format.js';
import type { AdoptCandidate, ReasonDetail, RemovedOutcome } from '../plan/reason-details.js';
import type { Action, Change } from '../plan/types.js';
import { timeText } from '../zoned-time/index.js';

/**
 * The words of a plan: a change's details as sentences for people, the same in every medium (the
 * terminal, Markdown, the calendar page, the `reasons` of `--json` and of a plan file); each medium
 * escapes them for its sink. The planner writes none of these: it sets codes and facts only.
 */
export function reasonSentences(change: Pick<Change, 'details'>, words: ReasonWords = {}): string[] {
  return change.details.map((detail) => detailText(detail, words));
}

/** How the sentences name things. */
export interface ReasonWords {
  /**
   * Account id → its name in postsync.yaml: a field of one account then reads `content for
   * brand-photo` instead of `targets[<id>].contentOverride`. Without it (the JSON, the plan file:
   * data for tools as well as people) field paths stay as they are.
   */
  accounts?: ReadonlyMap<string, string>;
}

/** Field paths as a reason names them: `content, scheduledAt, targets[…].options.vidATitle`, or with `accounts` `vidATitle for brand-video`. */
export function fieldList(fields: readonly string[], words: ReasonWords = {}): string {
  return fields.map((field) => fieldName(field, words.accounts)).join(', ');
}

const ACCOUNT_FIELD = /^targets\[([^\]]+)\]\.(contentOverride|options\.(.+))$/;

function fieldName(field: string, accounts: ReadonlyMap<string, string> | undefined): string {
  if (accounts === undefined) return field;
  const match = ACCOUNT_FIELD.exec(field);
  const name = match?.[1] === undefined ? undefined : accounts.get(match[1]);
  return match === null || name === undefined ? field : `${match[3] ?? 'content'} for ${name}`;
}

/** Why a published post whose file or occurrence is gone is no change. */
const STAYS_PUBLISHED = 'the post is published and stays as it is (published posts are never deleted)';

/** One detail as one sentence. */
export function detailText(detail: ReasonDetail, words: ReasonWords = {}): string {
  switch (detail.code) {
    case 'new-file':
      return 'new file';
    case 'new-occurrence':
      return `new occurrence (${detail.date})`;
    case 'interrupted-create':
      return 'resume an interrupted create';
    case 'made-post-found':
      return `the post it made (${detail.postId}) is on the remote: taken, the create is not sent again`;
    case 'recreated':
      return `deleted on the remote (last written ${detail.appliedAt}); created again (--recreate)`;
    case 'deleted-on-remote':
      return `deleted on the remote since postsync last wrote it (${detail.appliedAt}); held, not recreated`;
    case 'recreate-hint':
      return `recreate it with \`postsync apply --recreate ${detail.key}\`, or remove ${detail.file} to forget it`;
    case 'not-visible-yet':
      return `written ${detail.appliedAt}, not visible on the remote yet (a read that lags the write): nothing to do`;
    case 'up-to-date':
      return 'up to date';
    case 'file-changed':
      return `changed in ${detail.file}: ${fieldList(detail.fields, words)}`;
    case 'also-drifted':
      return `also drifted on the remote since the last apply; ${detail.file} wins`;
    case 'drifted':
      return `drifted on the remote since the last apply: ${fieldList(detail.fields, words)}`;
    case 'merged-record':
      return `the state entry was merged from two branches and re-read from the remote: ${fieldList(detail.fields, words)} differ from ${detail.file}`;
    case 'renamed':
      return `renamed ${detail.from} → ${detail.to}`;
    case 'key-changed':
      return `key changed ${detail.fromKey} → ${detail.key} in ${detail.file}`;
    case 'file-removed':
      return `${detail.file} removed${FILE_OUTCOME[detail.outcome]}`;
    case 'occurrence-removed':
      return `${detail.date} is no longer an occurrence of the repeat in ${detail.file}${OCCURRENCE_OUTCOME[detail.outcome]}`;
    case 'pending-removed':
      return `${detail.file} removed while its create was interrupted; the create is resolved, then ${detail.prune ? 'deleted' : 'the post goes back to draft (--prune deletes it)'}`;
    case 'gone-on-remote':
      return 'already deleted on the remote; will be forgotten';
    case 'not-editable':
      return detail.status === 'published'
        ? `post is published; published posts are never ${detail.verb}`
        : `post is ${detail.status}; only draft and scheduled posts can be ${detail.verb}`;
    case 'account-unavailable':
      return `account ${detail.account} is unavailable: ${detail.why ?? 'no reason given'}`;
    case 'account-not-connected':
      return `account ${detail.account} is not connected to this project`;
    case 'adopted':
      return adoptedText(detail.how, detail.status === 'draft' ? 'draft' : 'scheduled post');
    case 'adopt-ambiguous':
      return `${detail.candidates.length === 1 ? 'a remote post no state entry owns is this post as the service keeps it, but so may be another new file' : 'several remote posts no state entry owns may be this post'}: ${candidateList(detail.candidates)}`;
    case 'adopt-uncertain':
      return `a remote post no state entry owns looks like this post but is not certainly it: ${candidateList(detail.candidates)}`;
    case 'adopt-hint':
      return `held instead of created: adopt one with \`postsync apply --adopt ${detail.key}=POST_ID\`, or create a new post with \`postsync apply --recreate ${detail.key}\``;
    case 'scheduled-in-past':
      return `scheduledAt ${timeText(detail.scheduledAt, detail.timezone)} is in the past; a post can only be scheduled in the future`;
    case 'slot':
      return `time from slot ${detail.slot}: ${detail.wall}, ${detail.source === 'recorded' ? 'kept from the last apply' : 'the earliest free one'}`;
    case 'file-errors':
      return `${detail.file} has ${detail.count === 1 ? 'an error' : 'errors'}: ${detail.message}${moreErrors(detail.count)}`;
    case 'held-back':
      return HELD_BACK[detail.action];
    case 'held-by-rule':
      return `held by ${detail.namesRule ? '' : 'a rule: '}${detail.message}${moreErrors(detail.count)}`;
    case 'rule-wait':
      return detail.create ? 'the post is not created while the rule holds it' : 'the post is left as it is while the rule holds it';
    case 'project-errors':
      return `nothing is applied while ${detail.where.map((file) => file ?? 'the project').join(', ')} ${detail.count === 1 ? 'has an error' : 'have errors'}: ${detail.message}`;
    case 'unreadable-file':
      return `${detail.gone} is gone, but ${detail.files.join(', ')} cannot be read and may be it under a new name; the post is not deleted until ${detail.files.length === 1 ? 'that file is' : 'those files are'} fixed`;
    case 'unconfirmed-record': {
      const what = detail.pending ? `The interrupted create of "${detail.key}" in the state` : `The state record of "${detail.key}"${detail.postId ? ` (post ${detail.postId})` : ''}`;
      return `${what} was not written by an apply of this repository (its seal is missing or wrong), so it is not acted on. If that record is right, run \`postsync state confirm ${detail.key}\` with the API key; otherwise remove it from the state file.`;
    }
    case 'shared-record':
      return `The state records ${detail.keys.map((key) => `"${key}"`).join(', ')} all point at post ${detail.postId ?? '?'}; an apply never leaves two records on one post, so none is acted on. Remove the stale record from the state file.`;
    case 'other-calendar':
      return `Post ${detail.postId} is recorded by the calendar in ${detail.owner} of this repository as well, so this calendar does not act on it. If it is that calendar's post, remove the record of "${detail.key}" from this calendar's state file; if it is this one's, remove it from the state of ${detail.owner}.`;
  }
}

const FILE_OUTCOME: Record<RemovedOutcome, string> = {
  deleted: '',
  'back-to-draft': ': the post goes back to draft on the remote (--prune deletes it)',
  'kept-as-draft': ': the post stays a draft on the remote (--prune deletes it)',
  'published-kept': `: ${STAYS_PUBLISHED}`,
};

const OCCURRENCE_OUTCOME: Record<RemovedOutcome, string> = {
  deleted: '',
  'back-to-draft': ': it goes back to draft on the remote (--prune deletes it)',
  'kept-as-draft': ': it stays a draft on the remote (--prune deletes it)',
  'published-kept': `: ${STAYS_PUBLISHED}`,
};

/** What a post blocked by errors is held back from, by what its change would have done. */
const HELD_BACK: Record<Action, string> = {
  create: 'the post is not created until it is fixed',
  update: 'the post is not updated until it is fixed',
  move: 'the post is not moved until it is fixed',
  delete: 'the post is left as it is (not deleted) until it is fixed',
  unschedule: 'the post is left as it is (not unscheduled) until it is fixed',
  adopt: 'the post is left as it is until it is fixed',
  noop: 'the post is left as it is until it is fixed',
  blocked: 'the post is left as it is until it is fixed',
};

function moreErrors(count: number): string {
  return count > 1 ? ` (and ${plural(count - 1, 'more error')})` : '';
}

function adoptedText(how: 'unowned-match' | 'tidied-match' | 'chosen', kind: string): string {
  if (how === 'unowned-match') return `a remote ${kind} with exactly this content, targets, options, media and schedule exists and no state entry owns it: adopted instead of created`;
  if (how === 'tidied-match') return `a remote ${kind} no state entry owns is this post as the service keeps it (blanks, Unicode form, tags, title spacing, schedule to the minute, media order): adopted instead of created`;
  return `the remote ${kind} chosen with --adopt: adopted as it is; the next plan updates it to the file`;
}

function candidateList(candidates: readonly AdoptCandidate[]): string {
  return candidates
    .map((candidate) => `${candidate.postId} (${candidate.status}, created ${candidate.createdAt}${candidate.differs.length === 0 ? '' : `; differs in ${fieldList(candidate.differs)}`})`)
    .join(', ');
}
