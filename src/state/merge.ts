import { compareText } from '../text/ordering.js';
import { canonicalJson } from './hash.js';
import { emptyStateFile, emptyProjectState } from './state-file.js';
import type { PostRecord, StateFile, ProjectState } from './types.js';

/** Something the merge decided that a person may want to look at. */
export interface StateMergeNote {
  targetId: string;
  /** `posts`, `media`, `pending` or `uploads`. */
  section: keyof Pick<ProjectState, 'posts' | 'media' | 'pending' | 'uploads'>;
  key: string;
  message: string;
}

export interface StateMergeResult {
  state: StateFile;
  /** One per entry both sides changed, and per post id that the merged state no longer owns. */
  notes: StateMergeNote[];
}

type Entries<T> = Record<string, T>;

const same = (a: unknown, b: unknown): boolean => canonicalJson(a ?? null) === canonicalJson(b ?? null);

/**
 * Three-way merge of one map: a key changed on one side only takes that side (a removal
 * included); a key changed on both sides goes to `bothChanged`.
 */
function mergeEntries<T>(base: Entries<T>, ours: Entries<T>, theirs: Entries<T>, bothChanged: (key: string, ours: T | undefined, theirs: T | undefined) => T | undefined): Entries<T> {
  const merged: Entries<T> = {};
  const keys = new Set([...Object.keys(base), ...Object.keys(ours), ...Object.keys(theirs)]);
  for (const key of [...keys].sort(compareText)) {
    const [b, o, t] = [base[key], ours[key], theirs[key]];
    const value = same(o, t) || same(t, b) ? o : same(o, b) ? t : bothChanged(key, o, t);
    if (value !== undefined) merged[key] = value;
  }
  return merged;
}

/** Of two versions of an entry, the one stamped later (ours on a tie): the most recent knowledge. */
function later<T>(ours: T | undefined, theirs: T | undefined, stamp: (entry: T) => string): T | undefined {
  if (ours === undefined || theirs === undefined) return ours ?? theirs;
  return compareText(stamp(theirs), stamp(ours)) > 0 ? theirs : ours;
}

function mergeSection(targetId: string, base: ProjectState, ours: ProjectState, theirs: ProjectState, notes: StateMergeNote[]): ProjectState {
  const note = (section: StateMergeNote['section'], key: string, message: string) => notes.push({ targetId, section, key, message });
  const posts = mergeEntries<PostRecord>(base.posts, ours.posts, theirs.posts, (key, o, t) => {
    const kept = later(o, t, (record) => record.appliedAt)!;
    const other = kept === o ? t : o;
    note('posts', key, 'changed on both branches; kept the later record, marked to be re-read from the remote on the next plan');
    if (other !== undefined && other.postId !== kept.postId) {
      note('posts', key, `post ${other.postId} of the other branch is no longer owned by the state; if it duplicates post ${kept.postId}, delete it in the service`);
    }
    return { ...kept, reread: true };
  });
  const pending = mergeEntries(base.pending, ours.pending, theirs.pending, (key, o, t) => {
    note('pending', key, 'interrupted create changed on both branches; kept the later one');
    return later(o, t, (entry) => entry.startedAt);
  });
  // A key is in at most one of posts and pending: a confirmed post wins over a pending create.
  for (const key of Object.keys(pending)) {
    const record = posts[key];
    if (record === undefined) continue;
    delete pending[key];
    posts[key] = { ...record, reread: true };
    note('pending', key, `one branch confirmed this post, the other still had a create pending (Idempotency-Key ${ours.pending[key]?.idempotencyKey ?? theirs.pending[key]?.idempotencyKey}); kept the post, marked to be re-read`);
  }
  const media = mergeEntries(base.media, ours.media, theirs.media, (sha256, o, t) => {
    note('media', sha256, 'uploaded on both branches; kept the later upload');
    return later(o, t, (entry) => entry.uploadedAt);
  });
  const uploads = mergeEntries(base.uploads, ours.uploads, theirs.uploads, (sha256, o, t) => {
    note('uploads', sha256, 'multipart upload changed on both branches; kept the later one');
    return later(o, t, (entry) => entry.startedAt);
  });
  // A finished upload needs no resuming.
  for (const sha256 of Object.keys(uploads)) if (media[sha256] !== undefined) delete uploads[sha256];
  return { apiUrl: ours.apiUrl, projectId: ours.projectId, posts, media, pending, uploads };
}

/**
 * Merges two versions of a state file that grew apart on two branches, from their common
 * ancestor (`postsync state merge %O %A %B`, git's merge driver). Each target section is merged
 * entry by entry: an entry added, changed or removed on one side only takes that side, so the
 * result holds every post either branch created. An entry both sides changed keeps the version
 * stamped later and is marked `reread`, so the next plan compares that remote post with its file
 * instead of trusting the applied hash. Pure: files are read and written by the caller.
 */
export function mergeStates(base: StateFile | null, ours: StateFile, theirs: StateFile): StateMergeResult {
  const ancestor = base ?? emptyStateFile();
  const notes: StateMergeNote[] = [];
  const targets: Record<string, ProjectState> = {};
  const ids = new Set([...Object.keys(ours.targets), ...Object.keys(theirs.targets)]);
  for (const id of [...ids].sort(compareText)) {
    const o = ours.targets[id];
    const t = theirs.targets[id];
    if (o === undefined || t === undefined) {
      targets[id] = (o ?? t)!;
      continue;
    }
    targets[id] = mergeSection(id, ancestor.targets[id] ?? emptyProjectState(o), o, t, notes);
  }
  return { state: { version: 1, targets }, notes };
}
