import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { guardWrite, type WriteRoot } from '../write-guard/guard-write.js';
import { StateError } from '../errors.js';
import type { MediaRecord, PendingCreate, PendingUpload, PostRecord, StateFile, ProjectState } from './types.js';
import { writeFileAtomic } from './atomic.js';
import { applyEdits, journalBase, journalHeaderLine, journalLine, journalPathFor, type JournalEdit } from './journal.js';
import { JournalFile } from './journal-file.js';
import { StateFileText } from './state-text.js';
import { readState, readStateText, sectionFor, stateSectionHash, type StateProject } from './state-file.js';
import type { SealedKind, StateSeal } from './seal.js';

/**
 * Owns one state file for one remote project's section. Every mutation is durable before its promise
 * resolves (the applier calls one after every single remote change): it is appended to the
 * journal beside the state file (`journalPathFor`) and fsynced, so a change costs the size of
 * the change, not of the state. `checkpoint` folds the journal into the state file (atomically)
 * and removes it; `open` first folds one left by a killed run, and `readState` replays one, so
 * a reader never sees less than what was acknowledged. Writes are chained, so they never
 * interleave. Other targets' sections are kept as read. Hold the state lock (`acquireLock`)
 * while using a store. Every record it writes carries its seal (`StateSeal`); a record it re-keys
 * is sealed again under its new key.
 */
export class StateStore {
  readonly path: string;
  /** The section key in the file (`targetId`). */
  readonly targetId: string;
  /** The calendar whose records it writes (`calendarIdentity`). */
  readonly calendar: string;
  private readonly file: StateFile;
  private readonly current: ProjectState;
  private readonly journal: JournalFile;
  private readonly seal: StateSeal;
  /** Journal lines of changes made in memory and not written yet (or whose write failed). */
  private unwritten: string[] = [];
  /** A journal with its header is on disk: something was appended, or a killed run left one. */
  private journaled = false;
  /** `journalBase` of the state file on disk, once known: what a new journal continues. */
  private base: string | undefined;
  /** The write in flight or last done. */
  private lastWrite: Promise<void> = Promise.resolve();
  /** The write not started yet that the next mutation joins. */
  private nextWrite: Promise<void> | undefined;
  /** Serializes the file for each fold, reusing the text of unchanged post records. */
  private readonly text = new StateFileText();

  /** The folder every write stays in (guardWrite). */
  private readonly root: string;

  private constructor(path: string, targetId: string, file: StateFile, section: ProjectState, options: { seal: StateSeal; root: string }) {
    this.path = path;
    this.seal = options.seal;
    this.calendar = options.seal.calendar;
    this.targetId = targetId;
    this.file = file;
    this.current = section;
    this.root = options.root;
    this.journal = new JournalFile(journalPathFor(path), { root: options.root });
  }

  /**
   * Opens the state at `path` (with the journal of a killed run replayed, and folded into the file).
   * `seal`: what seals the records it writes. `root`: the folder its writes must stay in, never
   * through a link (default: the state's folder).
   */
  static async open(path: string, project: StateProject, options: { seal: StateSeal } & Partial<WriteRoot>): Promise<StateStore> {
    const root = options.root ?? dirname(path);
    // Checked before anything is read or sent: a write refused midway would leave a change unrecorded.
    for (const written of [path, journalPathFor(path)]) await guardWrite(written, { root });
    const leftover = existsSync(journalPathFor(path));
    const file = await readState(path);
    const store = new StateStore(path, project.id, file, sectionFor(file, project), { seal: options.seal, root });
    if (leftover) {
      store.journaled = true;
      await store.checkpoint();
    }
    return store;
  }

  /** The live section. Read it freely; change it only through the methods below. */
  get section(): Readonly<ProjectState> {
    return this.current;
  }

  /** Same hash as `stateSectionHash` of a freshly read section: what plans are checked against. */
  sectionHash(): string {
    return stateSectionHash(this.current);
  }

  /** Records a create about to be sent. Supersedes an old record of the key (a post recreated after a remote delete). */
  recordPending(key: string, pending: PendingCreate): Promise<void> {
    return this.mutate(() => [
      ['posts', key, null],
      ['pending', key, this.seal.sealed('pending', key, pending)],
    ]);
  }

  /** The service answered the create: the pending record becomes an owned post. */
  completeCreate(key: string, record: PostRecord): Promise<void> {
    return this.mutate(() => [
      ['pending', key, null],
      ['posts', key, this.seal.sealed('posts', key, record)],
    ]);
  }

  recordUpdate(key: string, record: PostRecord): Promise<void> {
    return this.mutate(() => [['posts', key, this.seal.sealed('posts', key, record)]]);
  }

  /** Forgets a key: its post record and any pending create. */
  removePost(key: string): Promise<void> {
    return this.mutate(() => [
      ['posts', key, null],
      ['pending', key, null],
    ]);
  }

  /** Re-keys an owned post after a rename; refuses to overwrite another key's record. */
  moveKey(fromKey: string, toKey: string, file: string): Promise<void> {
    return this.mutate(() => {
      const record = this.current.posts[fromKey];
      if (!record) throw new StateError(`cannot move "${fromKey}" to "${toKey}": "${fromKey}" is not in the state`);
      if (fromKey !== toKey && (this.current.posts[toKey] || this.current.pending[toKey])) {
        throw new StateError(`cannot move "${fromKey}" to "${toKey}": "${toKey}" is already in the state`);
      }
      return [
        ['posts', fromKey, null],
        ['posts', toKey, this.seal.sealed('posts', toKey, { ...record, file })],
      ];
    });
  }

  /** An upload completed: the media id is known and any multipart progress is dropped. */
  recordMedia(sha256: string, record: MediaRecord): Promise<void> {
    return this.mutate(() => [
      ['media', sha256, this.seal.sealed('media', sha256, record)],
      ['uploads', sha256, null],
    ]);
  }

  recordUpload(sha256: string, upload: PendingUpload): Promise<void> {
    return this.mutate(() => [['uploads', sha256, this.seal.sealed('uploads', sha256, upload)]]);
  }

  clearUpload(sha256: string): Promise<void> {
    return this.mutate(() => [['uploads', sha256, null]]);
  }

  /** Whether the record of `kind` `key` is in the section and carries this store's seal. */
  confirms(kind: SealedKind, key: string): boolean {
    const record = (this.current[kind] as Record<string, MediaRecord | PendingCreate | PendingUpload | PostRecord>)[key];
    return record !== undefined && this.seal.confirms(kind, key, record);
  }

  /** Seals a record as it is (`postsync state confirm`: a person vouched for it). */
  confirm(kind: SealedKind, key: string): Promise<void> {
    return this.mutate(() => {
      const record = (this.current[kind] as Record<string, MediaRecord | PendingCreate | PendingUpload | PostRecord>)[key];
      if (record === undefined) throw new StateError(`cannot confirm ${kind} "${key}": it is not in the state`);
      return [[kind, key, this.seal.sealed(kind, key, record)]];
    });
  }

  /** Resolves once every write requested so far has finished (or failed). */
  async flush(): Promise<void> {
    await this.lastWrite.catch(() => undefined);
  }

  /**
   * Folds the journal into the state file: writes the whole state atomically, then removes the
   * journal. Resolves once both are done; changes made meanwhile go to a new journal. Does nothing
   * when nothing changed since the last fold (the state file is then not written).
   */
  checkpoint(): Promise<void> {
    const fold = this.lastWrite.catch(() => undefined).then(() => this.fold());
    this.lastWrite = fold;
    return fold;
  }

  private async fold(): Promise<void> {
    // Queued lines are changes whose append failed: the state file takes them as well.
    if (!this.journaled && this.unwritten.length === 0) return;
    // Lines not written yet are for changes the text already holds: it covers them.
    const covered = this.unwritten;
    this.unwritten = [];
    const text = this.text.render(this.file);
    try {
      await writeFileAtomic(this.path, text, { root: this.root });
    } catch (error) {
      this.unwritten = [...covered, ...this.unwritten];
      throw error;
    }
    // From here the journal is folded: a new one starts afresh even if removing this one fails.
    this.journaled = false;
    this.base = journalBase(text);
    await this.journal.remove();
  }

  /**
   * Applies the edits `change` returns now (a failed check throws before anything changes), then
   * resolves once a journal append that includes them is durable. Calls made while an append is
   * in flight share the next append (group commit). A failed append rejects the calls it carried;
   * their lines stay queued and go out with the next append.
   */
  private mutate(change: () => JournalEdit[]): Promise<void> {
    let edits: JournalEdit[];
    try {
      edits = change();
    } catch (error) {
      return Promise.reject(error);
    }
    applyEdits(this.current, edits);
    this.file.targets[this.targetId] = this.current;
    this.unwritten.push(journalLine({ t: this.targetId, u: this.current.apiUrl, p: this.current.projectId, e: edits }));
    if (!this.nextWrite) {
      const write = this.lastWrite
        .catch(() => undefined)
        .then(async () => {
          if (this.nextWrite === write) this.nextWrite = undefined;
          if (this.unwritten.length === 0) return;
          const lines = this.unwritten;
          this.unwritten = [];
          const fresh = !this.journaled;
          try {
            // Under the lock, and with no fold since open (or the last fold), the file on disk is the base.
            const header = fresh ? journalHeaderLine((this.base ??= journalBase(readStateText(this.path)))) : '';
            await this.journal.append(header + lines.join(''), { fresh });
          } catch (error) {
            this.unwritten = [...lines, ...this.unwritten];
            throw error;
          }
          this.journaled = true;
        });
      this.nextWrite = write;
      this.lastWrite = write;
    }
    return this.nextWrite;
  }
}
