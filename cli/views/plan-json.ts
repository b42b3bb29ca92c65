import { notReadyDraftFiles, type Diagnostic } from '../../src/diagnostics.js';
import { blockedByErrors } from '../../src/plan/posts-with-errors.js';
import { unconfirmedBlocked } from '../../src/plan/unconfirmed-records.js';
import type { Change, Plan, RemoteProject, Summary } from '../../src/plan/types.js';
import { changeWithReasons, type ChangeWithReasons } from '../../src/plan-words/plan-json.js';
import type { ApplyResult } from '../../src/apply/events.js';
import type { DraftReadiness } from '../../src/pipeline/draft-readiness.js';
import { terminalJson, type Terminal } from '../../src/text/terminal.js';

/**
 * The counts of each action, and: `blockedByErrors`, the blocked changes that are so because a
 * file has errors (they carry its `diagnostics`); `unconfirmedRecords`, those blocked because their
 * state record has no valid seal (`reason: unconfirmed-record`); `draftsNotReady`, the drafts that break a
 * publishing rule (a readiness warning) and could not be scheduled as they are.
 */
export type ReportSummary = Summary & { blockedByErrors: number; unconfirmedRecords: number; draftsNotReady: number };

/** The one JSON document `--json` prints (formatVersion 1), for plan, apply and validate. */
export interface JsonReport {
  formatVersion: 1;
  command: 'plan' | 'apply' | 'validate';
  target: RemoteProject | null;
  summary: ReportSummary | null;
  /** The plan's changes, their details as the sentences `reasons`. */
  changes: ChangeWithReasons[];
  uploads: Plan['uploads'];
  diagnostics: Diagnostic[];
  /** validate: every draft, and whether it is ready to schedule or what is missing. */
  drafts?: DraftReadiness[];
  apply?: { applied: number; failed: { key: string; message: string }[]; uploadedFiles: number; uploadedBytes: number };
}

export function planReport(command: JsonReport['command'], plan: Plan, result?: ApplyResult): JsonReport {
  return {
    formatVersion: 1,
    command,
    target: plan.target,
    summary: { ...plan.summary, blockedByErrors: blockedByErrors(plan).length, unconfirmedRecords: unconfirmedBlocked(plan), draftsNotReady: notReadyDraftFiles(plan.diagnostics).length },
    changes: plan.changes.map((change) => changeWithReasons(reportedChange(change))),
    uploads: plan.uploads,
    diagnostics: plan.diagnostics,
    ...(result
      ? {
          apply: {
            applied: result.applied.length,
            failed: result.failed.map((failure) => ({ key: failure.key, message: failure.error.message })),
            uploadedFiles: result.uploadedFiles,
            uploadedBytes: result.uploadedBytes,
          },
        }
      : {}),
  };
}

/**
 * A change as the report shows it: without the source digests it hands to the state record
 * (`sources`), which say nothing to a reader; `origins` says what they tell.
 */
function reportedChange(change: Change): Change {
  if (change.sources === undefined) return change;
  return Object.fromEntries(Object.entries(change).filter(([name]) => name !== 'sources')) as Change;
}

export function diagnosticsReport(command: JsonReport['command'], diagnostics: Diagnostic[]): JsonReport {
  return { formatVersion: 1, command, target: null, summary: null, changes: [], uploads: [], diagnostics };
}

export function renderJson(report: JsonReport): Terminal {
  return terminalJson(report);
}
