import { StateError } from '../errors.js';
import type { PlanTarget } from '../plan/types.js';
import type { MediaRecord, PendingCreate, PendingUpload, PostRecord, StateFile, TargetState } from './types.js';
import { writeFileAtomic } from './atomic.js';
import { prettyCanonicalJson } from './hash.js';
import { readState, sectionFor, stateSectionHash } from './store.js';

type StoreTarget = Pick<PlanTarget, 'id' | 'apiUrl' | 'projectId'>;

/**
 * Owns one state file for one target section. Every mutation is persisted atomically before its
 * promise resolves (the applier calls one after every single remote change). Calls are queued, so
 * writes never interleave; each write carries every mutation made so far. Other targets' sections
 * are kept as read. Hold the state lock (`acquireLock`) while using a store.
 */
export class StateStore {
  readonly path: string;
  /** The section key in the file (`targetId`). */
  readonly targetId: string;
  private readonly file: StateFile;
  private readonly current: TargetState;
  private queue: Promise<void> = Promise.resolve();

  private constructor(path: string, targetId: string, file: StateFile, section: TargetState) {
    this.path = path;
    this.targetId = targetId;
    this.file = file;
    this.current = section;
  }

  static async open(path: string, target: StoreTarget): Promise<StateStore> {
    const file = await readState(path);
    return new StateStore(path, target.id, file, sectionFor(file, target));
  }

  /** The live section. Read it freely; change it only through the methods below. */
  get section(): Readonly<TargetState> {
    return this.current;
  }

  /** Same hash as `stateSectionHash` of a freshly read section: what plans are checked against. */
  sectionHash(): string {
    return stateSectionHash(this.current);
  }

  /** Records a create about to be sent. Supersedes an old record of the key (a post recreated after a remote delete). */
  recordPending(key: string, pending: PendingCreate): Promise<void> {
    return this.mutate(() => {
      delete this.current.posts[key];
      this.current.pending[key] = pending;
    });
  }

  /** The create is confirmed by the service: the pending record becomes an owned post. */
  confirmCreate(key: string, record: PostRecord): Promise<void> {
    return this.mutate(() => {
      delete this.current.pending[key];
      this.current.posts[key] = record;
    });
  }

  recordUpdate(key: string, record: PostRecord): Promise<void> {
    return this.mutate(() => {
      this.current.posts[key] = record;
    });
  }

  /** Forgets a key: its post record and any pending create. */
  removePost(key: string): Promise<void> {
    return this.mutate(() => {
      delete this.current.posts[key];
      delete this.current.pending[key];
    });
  }

  /** Re-keys an owned post after a rename; refuses to overwrite another key's record. */
  moveKey(fromKey: string, toKey: string, file: string): Promise<void> {
    return this.mutate(() => {
      const record = this.current.posts[fromKey];
      if (!record) throw new StateError(`cannot move "${fromKey}" to "${toKey}": "${fromKey}" is not in the state`);
      if (fromKey !== toKey && (this.current.posts[toKey] || this.current.pending[toKey])) {
        throw new StateError(`cannot move "${fromKey}" to "${toKey}": "${toKey}" is already in the state`);
      }
      delete this.current.posts[fromKey];
      this.current.posts[toKey] = { ...record, file };
    });
  }

  /** An upload completed: the media id is known and any multipart progress is dropped. */
  recordMedia(sha256: string, record: MediaRecord): Promise<void> {
    return this.mutate(() => {
      this.current.media[sha256] = record;
      delete this.current.uploads[sha256];
    });
  }

  recordUpload(sha256: string, upload: PendingUpload): Promise<void> {
    return this.mutate(() => {
      this.current.uploads[sha256] = upload;
    });
  }

  clearUpload(sha256: string): Promise<void> {
    return this.mutate(() => {
      delete this.current.uploads[sha256];
    });
  }

  /** Resolves once the queue is drained (every mutation so far is on disk or has failed). */
  async flush(): Promise<void> {
    await this.queue;
  }

  /**
   * Applies `change` in its turn, then writes. A failed check leaves memory untouched; a failed
   * write rejects this call only, and the next call writes again with everything.
   */
  private mutate(change: () => void): Promise<void> {
    const run = this.queue.then(async () => {
      change();
      this.file.targets[this.targetId] = this.current;
      await writeFileAtomic(this.path, prettyCanonicalJson(this.file));
    });
    this.queue = run.catch(() => undefined);
    return run;
  }
}
