import type { ApplyEvent, ApplyResult } from '../apply/events.js';
import type { Diagnostic } from '../diagnostics.js';
import type { DraftReadiness } from '../pipeline/draft-readiness.js';
import type { Plan } from '../plan/types.js';
import type { PlanDelta } from './plan-delta.js';

/** What happened to one path, as a person would say it. */
export type FileChangeKind = 'added' | 'saved' | 'deleted' | 'folder-added' | 'folder-deleted';

export interface FileChange {
  /** Project-relative, forward slashes. */
  file: string;
  kind: FileChangeKind;
}

/** Why a plan was made again; several can come together. */
export interface PlanTrigger {
  /** Files saved, added or deleted since the previous plan. */
  files: FileChange[];
  /** The remote data was read again: on the interval, or asked for (`r`). */
  refreshed: 'interval' | 'manual' | null;
  /** The state file was changed by another run (e.g. `postsync apply` in another terminal). */
  stateChanged: boolean;
  /** Draft changes were just applied (`--apply-drafts`). */
  draftsApplied: boolean;
}

export interface WatchingSummary {
  contentDir: string;
  postFiles: number;
  mediaFiles: number;
  refreshSeconds: number;
}

/**
 * What a watch session reports; the CLI renders these, the session never prints. `at` is when
 * the event was made. Every `plan` carries the previous plan and what differs from it, and every
 * plan the drafts of the files, each ready to schedule or with what it still needs.
 */
export type WatchEvent =
  | { type: 'started'; at: Date; plan: Plan; drafts: DraftReadiness[]; watching: WatchingSummary }
  | { type: 'plan'; at: Date; trigger: PlanTrigger; plan: Plan; drafts: DraftReadiness[]; previous: Plan; delta: PlanDelta }
  /** postsync.yaml is invalid: the previous configuration stays in use until it is fixed. */
  | { type: 'config-invalid'; at: Date; diagnostics: readonly Diagnostic[] }
  | { type: 'notice'; at: Date; message: string }
  | { type: 'apply-start'; at: Date; plan: Plan }
  | { type: 'apply-progress'; event: ApplyEvent }
  | { type: 'apply-done'; at: Date; result: ApplyResult }
  | { type: 'apply-skipped'; at: Date; reason: string }
  /** Something failed (a refresh, a read); the session keeps running with what it had. */
  | { type: 'error'; at: Date; during: 'refresh' | 'plan' | 'apply' | 'watch' | 'state' | 'config'; error: Error };

export type WatchListener = (event: WatchEvent) => void;
