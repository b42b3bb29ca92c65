import { StateError } from '../errors.js';
import type { MediaRecord, PendingCreate, PendingUpload, PostRecord, StateFile, TargetState } from './types.js';
import { writeFileAtomic } from './atomic.js';
import { StateFileText } from './state-text.js';
import { readState, sectionFor, stateSectionHash, type StateTarget } from './state-file.js';

/**
 * Owns one state file for one target section. Every mutation is persisted atomically before its
 * promise resolves (the applier calls one after every single remote change). Writes are chained,
 * so they never interleave; each write carries every mutation made so far. Other targets'
 * sections are kept as read. Hold the state lock (`acquireLock`) while using a store.
 */
export class StateStore {
  readonly path: string;
  /** The section key in the file (`targetId`). */
  readonly targetId: string;
  private readonly file: StateFile;
  private readonly current: TargetState;
  /** The write in flight or last done. */
  private lastWrite: Promise<void> = Promise.resolve();
  /** The write not started yet that the next mutation joins. */
  private nextWrite: Promise<void> | undefined;
  /** Serializes the file for each write, reusing the text of unchanged post records. */
  private readonly text = new StateFileText();

  private constructor(path: string, targetId: string, file: StateFile, section: TargetState) {
    this.path = path;
    this.targetId = targetId;
    this.file = file;
    this.current = section;
  }

  static async open(path: string, target: StateTarget): Promise<StateStore> {
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

  /** Resolves once every write requested so far has finished (or failed). */
  async flush(): Promise<void> {
    await this.lastWrite.catch(() => undefined);
  }

  /**
   * Applies `change` now (a failed check throws before anything changes), then resolves once a
   * write that includes it is durable. Calls made while a write is in flight share the next
   * write (group commit): every promise still means "my change is on disk", with far fewer
   * writes of a large file under a concurrent applier. A failed write rejects the calls it
   * carried; their changes stay in memory and go out with the next write.
   */
  private mutate(change: () => void): Promise<void> {
    try {
      change();
    } catch (error) {
      return Promise.reject(error);
    }
    this.file.targets[this.targetId] = this.current;
    if (!this.nextWrite) {
      const write = this.lastWrite
        .catch(() => undefined)
        .then(() => {
          this.nextWrite = undefined;
          return writeFileAtomic(this.path, this.text.render(this.file));
        });
      this.nextWrite = write;
      this.lastWrite = write;
    }
    return this.nextWrite;
  }
}
