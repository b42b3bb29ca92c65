import type { PostRecord, StateFile, ProjectState } from '../../src/state/types.js';

/** The one target of the state files the merge tests build. */
export const ID = 'https://api.example.com/public/v1#acme';

/** A post record applied at `appliedAt` (its `remoteUpdatedAt` too). */
export function post(postId: string, appliedAt: string, extra: Partial<PostRecord> = {}): PostRecord {
  return { postId, file: `posts/${postId}.md`, appliedHash: 'a'.repeat(64), remoteUpdatedAt: appliedAt, appliedAt, ...extra };
}

/** A state file holding these posts (and `extra`) for the one target. */
export function file(posts: Record<string, PostRecord>, extra: Partial<ProjectState> = {}): StateFile {
  return { version: 1, targets: { [ID]: { apiUrl: 'https://api.example.com/public/v1', projectId: 'acme', posts, media: {}, pending: {}, uploads: {}, ...extra } } };
}

export const postsOf = (merged: StateFile) => merged.targets[ID]!.posts;
