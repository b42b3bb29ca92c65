import { readFileSync } from 'node:fs';
import { StateError } from '../errors.js';
import type { StateFile, TargetState } from './types.js';

/** The maps of a state section that changes are made to, key by key. */
export type JournalField = 'posts' | 'pending' | 'media' | 'uploads';

/** One key of a section set to a value, or removed (null). */
export type JournalEdit = readonly [field: JournalField, key: string, value: object | null];

/**
 * One line of the state journal: the edits of one StateStore change to one target section, with
 * what a missing section is created from. Edits only set or remove keys, so replaying a journal
 * onto a state that already holds some or all of it changes nothing more: a fold interrupted
 * between writing the state file and removing the journal is harmless.
 */
export interface JournalRecord {
  /** Target id (`targetId`): the section the edits apply to. */
  t: string;
  /** apiUrl and projectId of the section, for a section the state file does not have yet. */
  u: string;
  p: string;
  e: JournalEdit[];
}

const FIELDS: ReadonlySet<string> = new Set<JournalField>(['posts', 'pending', 'media', 'uploads']);

/**
 * The journal of a state file: `<state>.journal`, beside the state and its lock. It exists only
 * while an apply (or import) runs, or after one was killed; it is never committed.
 */
export function journalPathFor(statePath: string): string {
  return `${statePath}.journal`;
}

export function journalLine(record: JournalRecord): string {
  return `${JSON.stringify(record)}\n`;
}

/** Applies edits to a section in place; a record object set here is never edited afterwards. */
export function applyEdits(section: TargetState, edits: readonly JournalEdit[]): void {
  for (const [field, key, value] of edits) {
    const map = section[field] as Record<string, object>;
    if (value === null) delete map[key];
    else map[key] = value;
  }
}

/** `file` with every record replayed onto it, in order (the same object, changed in place). */
export function replayJournal(file: StateFile, records: readonly JournalRecord[]): StateFile {
  for (const record of records) {
    // An empty section, as emptyTargetState makes (not imported: store.ts imports this module).
    const section = (file.targets[record.t] ??= { apiUrl: record.u, projectId: record.p, posts: {}, media: {}, pending: {}, uploads: {} });
    applyEdits(section, record.e);
  }
  return file;
}

function isRecord(value: unknown): value is JournalRecord {
  const record = value as Partial<JournalRecord> | null;
  return (
    typeof record === 'object' && record !== null &&
    typeof record.t === 'string' && typeof record.u === 'string' && typeof record.p === 'string' &&
    Array.isArray(record.e) &&
    record.e.every((edit) => Array.isArray(edit) && edit.length === 3 && FIELDS.has(edit[0]) && typeof edit[1] === 'string' && typeof edit[2] === 'object')
  );
}

/**
 * The records of a journal's text, up to the first line that is not a whole record. Every change
 * was acknowledged only after an fsync of all lines before and including its own, so whatever
 * follows a torn or unreadable line was never acknowledged (a write cut short by a kill or a power
 * loss) and is dropped. The whole lines before it were written by this code: each says what was
 * about to be sent or what the service already did, so replaying them is safe.
 */
export function parseJournal(text: string): JournalRecord[] {
  const records: JournalRecord[] = [];
  let start = 0;
  for (let end = text.indexOf('\n'); end !== -1; start = end + 1, end = text.indexOf('\n', start)) {
    let value: unknown;
    try {
      value = JSON.parse(text.slice(start, end));
    } catch {
      break;
    }
    if (!isRecord(value)) break;
    records.push(value);
  }
  return records;
}

/** The records of the journal at `path`, or null when there is none. Synchronous, like readState. */
export function readJournalSync(path: string): JournalRecord[] | null {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new StateError(`cannot read the state journal ${path}: ${(error as Error).message}`, {
      hint: 'It holds changes of an interrupted apply that are not in the state file yet; make it readable and run `postsync apply` again.',
      cause: error,
    });
  }
  return parseJournal(text);
}
