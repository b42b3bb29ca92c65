import type { Action } from './types.js';

/**
 * What a change says about itself, beside its reason code: one detail per statement, each a code
 * from a closed set with the typed facts that statement needs (files, fields, times, counts,
 * candidates). The planner writes no words: `src/plan-words` turns details into sentences, one
 * renderer per medium. A view, tool or plan step that acts decides on `reason`, never on details.
 */
export type ReasonDetail =
  | { code: 'new-file' }
  | { code: 'new-occurrence'; date: string }
  | { code: 'interrupted-create' }
  /** A resumed create's post is on the remote: taken, the create is not sent again. */
  | { code: 'made-post-found'; postId: string }
  | { code: 'recreated'; appliedAt: string }
  | { code: 'deleted-on-remote'; appliedAt: string }
  /** How a person decides on a post deleted on the remote. */
  | { code: 'recreate-hint'; key: string; file: string }
  | { code: 'not-visible-yet'; appliedAt: string }
  | { code: 'up-to-date' }
  | { code: 'file-changed'; file: string; fields: string[] }
  /** Beside `file-changed`: the remote moved too, and the file wins. */
  | { code: 'also-drifted'; file: string }
  | { code: 'drifted'; fields: string[] }
  | { code: 'merged-record'; file: string; fields: string[] }
  | { code: 'renamed'; from: string; to: string }
  | { code: 'key-changed'; fromKey: string; key: string; file: string }
  /** A post's file, or its occurrence of a repeat (`date`), is gone; `outcome`: what becomes of its post. */
  | { code: 'file-removed'; file: string; outcome: RemovedOutcome }
  | { code: 'occurrence-removed'; date: string; file: string; outcome: RemovedOutcome }
  /** A pending create whose file is gone: resolved, then deleted (`prune`) or back to draft. */
  | { code: 'pending-removed'; file: string; prune: boolean }
  | { code: 'gone-on-remote' }
  | { code: 'not-editable'; status: string; verb: 'edited' | 'deleted' }
  /** `why`: the account's own reason as the service gives it, or null. */
  | { code: 'account-unavailable'; account: string; why: string | null }
  | { code: 'account-not-connected'; account: string }
  | { code: 'adopted'; how: 'unowned-match' | 'tidied-match' | 'chosen'; status: string }
  | { code: 'adopt-ambiguous'; candidates: AdoptCandidate[] }
  | { code: 'adopt-uncertain'; candidates: AdoptCandidate[] }
  /** How a person decides on a held new file: the commands to adopt or create. */
  | { code: 'adopt-hint'; key: string }
  | { code: 'scheduled-in-past'; scheduledAt: string; timezone: string }
  /** The time a slot gave the post (`wall`, on the project's clock), kept or picked now. */
  | { code: 'slot'; slot: string; wall: string; source: 'recorded' | 'assigned' }
  /** A file with errors: the first one's message, and how many there are. */
  | { code: 'file-errors'; file: string; message: string; count: number }
  /** What a post blocked by errors is held back from: what its change (`action`) would have done. */
  | { code: 'held-back'; action: Action }
  /** A rule about times or slots holds the post: the first error's message, how many, and whether the message names the rule. */
  | { code: 'held-by-rule'; message: string; count: number; namesRule: boolean }
  /** What a post held by a rule waits for: not created (`create`), or left as it is. */
  | { code: 'rule-wait'; create: boolean }
  /** An error on no post file: the files it is on (null: the project, no file), the first message, how many. */
  | { code: 'project-errors'; where: (string | null)[]; message: string; count: number }
  | { code: 'unreadable-file'; gone: string; files: string[] }
  /** The record of `key` (a post record, or an interrupted create: `pending`) has no valid seal. */
  | { code: 'unconfirmed-record'; key: string; postId: string | null; pending: boolean }
  | { code: 'shared-record'; keys: string[]; postId: string | null }
  | { code: 'other-calendar'; postId: string; owner: string; key: string };

/** What becomes of an owned post whose file or occurrence is gone. */
export type RemovedOutcome = 'deleted' | 'back-to-draft' | 'kept-as-draft' | 'published-kept';

/** A remote post a held new file may be: as the service shows it, and the fields it differs in. */
export interface AdoptCandidate {
  postId: string;
  status: string;
  createdAt: string;
  differs: string[];
}

export type ReasonDetailCode = ReasonDetail['code'];

/** The details of every up-to-date noop: one list, frozen, for the thousands of noops of a large plan. */
export const UP_TO_DATE: ReasonDetail[] = Object.freeze([Object.freeze({ code: 'up-to-date' as const })]) as unknown as ReasonDetail[];
