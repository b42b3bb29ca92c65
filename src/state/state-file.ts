import { readFileSync } from 'node:fs';
import { InputError, StateError } from '../errors.js';
import type { StateFile, StateSection, ProjectState } from './types.js';
import { canonicalJson, sha256Hex } from './hash.js';
import { describeSchemaErrors } from '../text/schema-errors.js';
import { journalPathFor, readJournalSync, replayJournalOnto } from './journal.js';

const RESTORE_HINT = 'Fix it by hand or restore it from git (`git checkout -- <file>`); postsync did not change it.';

export function emptyStateFile(): StateFile {
  return { version: 1, targets: {} };
}

export function emptyProjectState({ apiUrl, projectId }: { apiUrl: string; projectId: string }): ProjectState {
  return { apiUrl, projectId, posts: {}, media: {}, pending: {}, uploads: {} };
}

/**
 * An API URL in the one form used for identity: lowercase scheme and host, default port dropped,
 * no credentials, no fragment, no trailing slash.
 */
export function normalizeApiUrl(apiUrl: string): string {
  let url: URL;
  try {
    url = new URL(apiUrl.trim());
  } catch {
    throw new InputError(`API URL "${apiUrl}" is not a valid URL`, {
      hint: 'Use an absolute URL such as https://api.example.com/public/v1.',
    });
  }
  const path = url.pathname.replace(/\/+$/, '');
  return `${url.protocol}//${url.host}${path}${url.search}`;
}

/**
 * The state section key of a remote. The embedded local API listens on an ephemeral port, so it
 * is identified by project alone (`local:<projectId>`); any other remote by `<url>#<projectId>`.
 */
export function stateSectionId({ apiUrl, projectId, local }: { apiUrl: string; projectId: string; local: boolean }): string {
  return local ? `local:${projectId}` : `${normalizeApiUrl(apiUrl)}#${projectId}`;
}

/** Which section of a state file: the remote project's section id (`stateSectionId`), API URL and project. */
export interface StateProject {
  id: string;
  apiUrl: string;
  projectId: string;
}

/** The section of `state` for a remote project, or a fresh empty one (not added to `state`). */
export function sectionFor(state: StateFile, project: StateProject): ProjectState {
  return state.targets[project.id] ?? emptyProjectState(project);
}

/** Hash of a remote project's section: a plan records it, and apply refuses the plan if it moved. */
export function stateSectionHash(section: ProjectState): string {
  return sha256Hex(canonicalJson(section));
}

/**
 * Reads and validates a state file. A missing file is an empty state. Anything that cannot be
 * trusted (unreadable, not JSON, merge conflict markers, wrong shape) is a StateError; the file is
 * never modified here. The journal of an apply that is running or was killed (`journalPathFor`)
 * is replayed onto what is read, in memory (see `replayJournalOnto`): the state is what was acknowledged.
 */
export async function readState(path: string): Promise<StateFile> {
  // The journal first (both reads are synchronous, back to back): a fold in between then leaves a
  // journal that the file already holds, which replays harmlessly.
  const journal = readJournalSync(journalPathFor(path));
  const text = readStateText(path);
  const file = text === null ? emptyStateFile() : await parseState(text, path);
  return journal === null ? file : replayJournalOnto(file, journal, { text, path });
}

/** `readState`, then the remote project's section and its hash. */
export async function readStateSection(path: string, project: StateProject): Promise<StateSection> {
  const section = sectionFor(await readState(path), project);
  return { section, hash: stateSectionHash(section) };
}

/** The state file's text; null when there is none. */
export function readStateText(path: string): string | null {
  try {
    // Synchronously, in one go: asynchronous reads come in chunks that each wait for a turn of an
    // event loop busy with the listing, before anything can be planned (bench/README.md).
    // As UTF-8 even when the bytes are ASCII: read as latin1, a text this large is an external
    // string, which JSON.parse reads more slowly than decoding saves.
    return readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new StateError(`cannot read the state file ${path}: ${(error as Error).message}`, {
      hint: 'Check that the path is a readable file.',
      cause: error,
    });
  }
}

/** Parses state text; `path` is only used in messages (and `restoreHint`, for a state that is not a working file). */
export async function parseState(text: string, path: string, options: { restoreHint?: string } = {}): Promise<StateFile> {
  const hint = options.restoreHint ?? RESTORE_HINT.replace('<file>', path);
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    // Only text that is not JSON can hold a conflict marker: JSON has no line that starts with `<` or `>`.
    if (/^(<{7}|>{7}) /m.test(text)) {
      throw new StateError(`the state file ${path} contains unresolved git merge conflict markers`, { hint });
    }
    throw new StateError(`the state file ${path} is not valid JSON: ${(error as Error).message}`, { hint, cause: error });
  }
  const version = (data as { version?: unknown } | null)?.version;
  if (typeof version === 'number' && version > 1) {
    throw new StateError(`the state file ${path} has version ${version}; this postsync understands version 1`, {
      hint: 'Upgrade postsync to the version that wrote this state.',
    });
  }
  const { validateState } = await import('../generated/file-validators.js');
  if (!validateState(data)) {
    const problems = describeSchemaErrors(validateState.errors);
    throw new StateError(`the state file ${path} is not a valid postsync state:\n  ${problems.join('\n  ')}`, { hint });
  }
  return data as StateFile;
}
