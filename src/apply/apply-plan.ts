import pLimit from 'p-limit';
import type { ApiClient } from '../api/index.js';
import { PostsyncError } from '../errors.js';
import type { Action, Change, Plan } from '../plan/types.js';
import type { StateStore } from '../state/state-store.js';
import type { ApplyListener, ApplyResult } from './events.js';
import { executeChange } from './execute-change.js';
import { uploadMedia } from './upload-media.js';

/** Default number of post writes in flight; the client's pacer keeps them under the rate limit. */
export const DEFAULT_APPLY_CONCURRENCY = 4;

export interface ApplyOptions {
  plan: Plan;
  client: ApiClient;
  /** Open on the plan's target, with the state lock held. */
  store: StateStore;
  /** Project root: media paths in the plan are relative to it. */
  root: string;
  onEvent?: ApplyListener;
  concurrency?: number;
  now?: () => Date;
}

/** Phases: media, creates, updates, moves, unschedules, deletes; adopts (state only) come first. */
const PHASES: readonly Action[] = ['adopt', 'create', 'update', 'move', 'unschedule', 'delete'];

/**
 * Executes exactly the plan: nothing is listed or re-planned here. A failed change does not stop
 * independent ones; it is reported, and the run ends partial (the next plan shows what is left).
 * At the end the store's journal is folded into the state file (`StateStore.checkpoint`).
 */
export async function applyPlan(options: ApplyOptions): Promise<ApplyResult> {
  try {
    return await applyChanges(options);
  } finally {
    await options.store.checkpoint();
  }
}

async function applyChanges(options: ApplyOptions): Promise<ApplyResult> {
  const { plan, client, store } = options;
  const onEvent = options.onEvent ?? (() => undefined);
  const now = options.now ?? (() => new Date());
  const result: ApplyResult = { applied: [], failed: [], uploadedFiles: 0, uploadedBytes: 0 };

  const uploads = await uploadMedia(plan.uploads, { client, store, root: options.root, targetId: plan.target.id, onEvent });
  result.uploadedFiles = uploads.uploadedFiles;
  result.uploadedBytes = uploads.uploadedBytes;

  const context = { client, store, targetId: plan.target.id, now };
  const limit = pLimit(options.concurrency ?? DEFAULT_APPLY_CONCURRENCY);
  for (const phase of PHASES) {
    const changes = plan.changes.filter((change) => change.action === phase);
    await Promise.all(
      changes.map(async (change) => {
        const saves: Promise<void>[] = [];
        const defer = (saving: Promise<void>): void => {
          // Awaited below; marked handled now, so a failure before then is not "unhandled".
          saving.catch(() => undefined);
          saves.push(saving);
        };
        try {
          // A slot is held while the change's requests are in flight, not while its last state
          // write reaches the disk: that write joins the next changes' writes (group commit), so
          // a slow fsync does not cut the request rate. Done still means "on disk".
          const postId = await limit(async () => {
            onEvent({ type: 'change-start', change });
            const missing = missingMedia(change, uploads.failed);
            if (missing) throw missing;
            return executeChange(change, { ...context, defer });
          });
          await Promise.all(saves);
          result.applied.push(change);
          onEvent({ type: 'change-done', change, postId });
        } catch (error) {
          await Promise.allSettled(saves);
          const failure = error instanceof Error ? error : new Error(String(error));
          result.failed.push({ key: change.key, error: failure });
          onEvent({ type: 'change-failed', change, error: failure });
        }
      }),
    );
  }
  return result;
}

function missingMedia(change: Change, failedUploads: ReadonlyMap<string, Error>): Error | null {
  const failed = change.desired?.media.filter((sha256) => failedUploads.has(sha256)) ?? [];
  const [first] = failed;
  if (first === undefined) return null;
  return new PostsyncError(`not sent: ${failed.length} of its media files failed to upload`, { cause: failedUploads.get(first) });
}
