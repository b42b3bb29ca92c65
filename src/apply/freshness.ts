import { join } from 'node:path';
import pLimit from 'p-limit';
import { ApiError, type ApiClient } from '../api/index.js';
import type { Post } from '../api/types.js';
import { sha256File } from '../content/media-memo.js';
import { StalePlanError } from '../errors.js';
import { checkPlanFresh, postIdsToCheck } from '../plan/plan-file.js';
import type { Plan, RemoteProject } from '../plan/types.js';

const READ_CONCURRENCY = 8;

/**
 * Before a saved plan is applied: same remote project, same state, every post it writes unchanged on the
 * remote (fetched one by one: only the posts the plan touches, never the whole listing), and every
 * media file it uploads still holding the bytes that were planned. Throws StalePlanError.
 */
export async function verifyPlanFresh(input: { plan: Plan; client: ApiClient; project: RemoteProject; stateHash: string; root: string }): Promise<void> {
  const { plan, client } = input;
  const limit = pLimit(READ_CONCURRENCY);
  const livePosts = new Map<string, Post | null>();
  await Promise.all(
    postIdsToCheck(plan).map((id) =>
      limit(async () => {
        livePosts.set(id, await client.getPost(id).catch((error: unknown) => {
          if (error instanceof ApiError && error.status === 404) return null;
          throw error;
        }));
      }),
    ),
  );
  checkPlanFresh({ plan, currentStateHash: input.stateHash, currentProject: input.project, livePosts });
  const changedFiles: string[] = [];
  await Promise.all(
    plan.uploads.map((upload) =>
      limit(async () => {
        const actual = await sha256File(join(input.root, upload.path)).catch(() => null);
        if (actual?.sha256 !== upload.sha256) changedFiles.push(upload.path);
      }),
    ),
  );
  if (changedFiles.length > 0) {
    throw new StalePlanError(`media changed since the plan was made: ${changedFiles.sort().join(', ')}`);
  }
}
