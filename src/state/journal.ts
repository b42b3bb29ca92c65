import { readFileSync } from 'node:fs';
import { StateError } from '../errors.js';
import { canonicalJson, sha256Hex } from './hash.js';
import type { JournalField, StateFile, ProjectState } from './types.js';

/** The maps of a state section that changes are made to, key by key. */

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
export function applyEdits(section: ProjectState, edits: readonly JournalEdit[]): void {
  for (const [field, key, value] of edits) {
    const map = section[field] as Record<string, object>;
    if (value === null) delete map[key];
    else map[key] = value;
  }
}

/** `file` with every record replayed onto it, in order (the same object, changed in place). */
export function replayJournal(file: StateFile, records: readonly JournalRecord[]): StateFile {
  for (const record of records) {
    // An empty section, as emptyProjectState makes (not imported: store.ts imports this module).
    const section = (file.targets[record.t] ??= { apiUrl: record.u, projectId: record.p, posts: {}, media: {}, pending: {}, uploads: {} });
    applyEdits(section, record.e);
  }
  return file;
}

/**
 * The first line of a journal: the state file it continues, by digest (`journalBase`). A journal
 * is replayed onto that file; onto any other, only if it adds nothing (see `replayJournalOnto`).
 */
interface JournalHeader {
  postsyncJournal: 1;
  base: string;
}

/** A journal as read: the state file it continues, and its whole records in order. */
export interface StateJournal {
  base: string;
  records: JournalRecord[];
}

/** Digest of a state file's text (null: no file), as a journal header names its base. */
export function journalBase(stateText: string | null): string {
  return stateText === null ? 'none' : sha256Hex(stateText);
}

export function journalHeaderLine(base: string): string {
  return `${JSON.stringify({ postsyncJournal: 1, base } satisfies JournalHeader)}\n`;
}

function isHeader(value: unknown): value is JournalHeader {
  const header = value as Partial<JournalHeader> | null;
  return typeof header === 'object' && header !== null && header.postsyncJournal === 1 && typeof header.base === 'string';
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
 * A journal's text: its header and its records, up to the first line that is not a whole record.
 * Every change was acknowledged only after an fsync of all lines before and including its own, so
 * whatever follows a torn or unreadable line was never acknowledged (a write cut short by a kill
 * or a power loss) and is dropped. The whole lines before it were written by this code: each says
 * what was about to be sent or what the service already did, so replaying them is safe. Null when
 * not even the header is whole: then nothing in it was acknowledged.
 */
export function parseJournal(text: string): StateJournal | null {
  const lines: unknown[] = [];
  let start = 0;
  for (let end = text.indexOf('\n'); end !== -1; start = end + 1, end = text.indexOf('\n', start)) {
    try {
      lines.push(JSON.parse(text.slice(start, end)));
    } catch {
      break;
    }
  }
  const [header, ...rest] = lines;
  if (!isHeader(header)) return null;
  const whole = rest.findIndex((line) => !isRecord(line));
  return { base: header.base, records: (whole === -1 ? rest : rest.slice(0, whole)) as JournalRecord[] };
}

/** The journal at `path`, or null when there is none (or nothing of it was acknowledged). Synchronous, like readState. */
export function readJournalSync(path: string): StateJournal | null {
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

/**
 * `file` (read from `stateText`) with the journal replayed. A journal continues one state file;
 * onto a different one it is replayed only when that adds nothing: the file is then the fold of
 * this very journal (a fold cut short before the journal was removed). Otherwise the state file
 * was replaced after the journal was started (a checkout, a pull), and either choice could lose
 * what the other holds: a StateError says so.
 */
export function replayJournalOnto(file: StateFile, journal: StateJournal, state: { text: string | null; path: string }): StateFile {
  if (journal.base === journalBase(state.text)) return replayJournal(file, journal.records);
  const before = canonicalJson(file);
  if (canonicalJson(replayJournal(file, journal.records)) === before) return file;
  const journalPath = journalPathFor(state.path);
  throw new StateError(`the state file ${state.path} was replaced after an interrupted postsync run wrote ${journalPath}, which holds changes that file does not have`, {
    hint: `The journal records what that run did on the remote. Put back the state file it continued (e.g. from git) and run \`postsync apply\` to fold it in; or delete ${journalPath} to drop those records (posts that run created are then not owned by this state).`,
  });
}
