import { createHash } from 'node:crypto';
import { lstat, realpath } from 'node:fs/promises';
import { dirname, posix, resolve } from 'node:path';
import type { Config } from '../config/types.js';
import { isInSnippets, snippetsDirOf } from '../content/snippet-files.js';
import { InputError } from '../errors.js';
import { duplicateText, editPost, newDraftText, type PostEdit } from '../post-edit/index.js';
import { createFileExclusive, writeFileAtomic } from '../state/atomic.js';
import { builtInValues, renderTemplate } from '../templates/index.js';
import { isHiddenPath, isInside, relativePosix } from '../text/paths.js';
import { guardWrite } from '../write-guard/guard-write.js';
import { formatOffset, offsetMs, parseScheduledAt } from '../zoned-time/index.js';
import type { EditRequest } from './edit-request.js';
import { PathLocks } from './path-locks.js';
import { readPostAt, readPostFile } from './read-post-file.js';

/**
 * Where the post files are (the project root names them, the content folder holds them, the
 * snippets folder holds none: `<root>/snippets` when left out), and what renders their `{{ }}`.
 */
export type PostProject = Pick<Config, 'root' | 'contentDir' | 'vars' | 'hashtags' | 'timezone'> & Partial<Pick<Config, 'snippetsDir'>>;

/** A post file as the page edits it: its source text and its version. */
export interface VersionedPostFile {
  file: string;
  text: string;
  version: string;
}

/** What an edit came to: the file as written, or, when it changed on disk since the page read it, as it is now. */
export type EditOutcome = { kind: 'written'; post: VersionedPostFile } | { kind: 'conflict'; post: VersionedPostFile };

/** Files whose last edit can be undone, and the text kept for them: the oldest is forgotten past either. */
const MAX_UNDOS = 100;
const MAX_UNDO_CHARACTERS = 8_000_000;

/** Names tried for a new or duplicated file (`name`, `name-2`, …) before giving up. */
const MAX_NAMES = 50;

/** The version of a file's bytes: any change to them makes another. */
export function postVersion(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('base64url');
}

/**
 * Reads and writes post files for the calendar's editor. It touches only Markdown files inside the
 * content folder, named as the calendar names them (project-relative, forward slashes): no hidden
 * part, no `..`, nothing under node_modules, no symbolic link from the project root to the file.
 * A write names the version the page read; when the file changed since (a save in an editor, a
 * pull, another tab's edit), nothing is written and the current file comes back. The edits of one
 * file run one at a time (a lock per real path), and the version is checked again just before the
 * new text replaces the file (writeFileAtomic's `stillCurrent`), so of edits naming one version
 * exactly one is written.
 */
export class PostFileEditor {
  readonly #project: () => PostProject;
  /** By file: the version its last edit wrote, and its text before that edit (what an undo puts back). */
  readonly #undos = new Map<string, { version: string; before: string }>();
  /** One edit of a file at a time (by real path): its read, version check and write. */
  readonly #locks = new PathLocks();

  /** `project` is asked on each request: a reloaded postsync.yaml may name another content folder. */
  constructor(project: () => PostProject) {
    this.#project = project;
  }

  /** Where the post files are, as asked now. */
  get project(): PostProject {
    return this.#project();
  }

  async read(file: unknown): Promise<VersionedPostFile> {
    const path = await this.#checked(file);
    const bytes = await readPostFile(path, { root: this.#project().root });
    if (typeof bytes === 'string') throw refused(file as string, bytes);
    return sourceOf(file as string, bytes);
  }

  /**
   * A text typed in the editor as the preview shows it: `{{ }}` filled in from `vars:`, `hashtags:`
   * and the file's built-ins (`{{ date }}` only once it is saved with a time; snippets only once
   * saved), with what could not be filled in.
   */
  async render(file: unknown, text: string): Promise<{ text: string; problems: string[] }> {
    const path = await this.#checked(file, { exists: false });
    const { contentDir, vars, hashtags, timezone } = this.#project();
    const fileInContent = relativePosix(contentDir, path);
    const builtIns = builtInValues({ key: fileInContent.replace(/\.md$/, ''), fileInContent, scheduledAt: null, timezone });
    const rendered = renderTemplate(text, { file: file as string, vars, hashtags, builtIns });
    return { text: rendered.text, problems: rendered.diagnostics.map((diagnostic) => diagnostic.message) };
  }

  async apply(request: EditRequest): Promise<EditOutcome> {
    if (request.action === 'new') return this.#create(newDraftText(request.at === undefined ? {} : { at: request.at }), draftName(request.at));
    const { file, version } = request;
    const path = await this.#checked(file);
    return this.#locks.run(await realpath(path), async () => {
      const current = await this.read(file);
      if (current.version !== version) return { kind: 'conflict', post: current };
      if (request.action === 'duplicate') return this.#duplicate(current, request.at);
      if (request.action === 'undo') return this.#undo(current, path);
      const text = request.edits.map((edit) => this.#zoned(edit)).reduce(editPost, current.text);
      const outcome = await this.#replace(current, path, text);
      if (outcome.kind === 'written') this.#keepUndo(current.file, { version: outcome.post.version, before: current.text });
      return outcome;
    });
  }

  #keepUndo(file: string, undo: { version: string; before: string }): void {
    this.#undos.delete(file);
    this.#undos.set(file, undo);
    let kept = 0;
    for (const { before } of this.#undos.values()) kept += before.length;
    for (const [oldest, { before }] of this.#undos) {
      if (this.#undos.size <= MAX_UNDOS && kept <= MAX_UNDO_CHARACTERS) break;
      this.#undos.delete(oldest);
      kept -= before.length;
    }
  }

  /** The edit's inverse: the file's bytes before it, written only while the file is still what the edit wrote (the version check of every edit). */
  async #undo(current: VersionedPostFile, path: string): Promise<EditOutcome> {
    const undo = this.#undos.get(current.file);
    if (undo === undefined || undo.version !== current.version) {
      throw new InputError(`there is no edit of ${current.file} to undo: the page's last edit of it was undone already, or was not made by this watch`, { hint: 'Edit the post again instead.' });
    }
    this.#undos.delete(current.file);
    return this.#replace(current, path, undo.before);
  }

  /**
   * Replaces the file at `path` with `text` only while it is still `current`'s version: checked
   * again just before the replace, so an edit that came between is answered as a conflict.
   */
  async #replace(current: VersionedPostFile, path: string, text: string): Promise<EditOutcome> {
    const stillCurrent = async (now: string) => {
      const read = await readPostAt(now);
      return typeof read !== 'string' && postVersion(read.bytes) === current.version;
    };
    if (await writeFileAtomic(path, text, { root: this.#project().root, stillCurrent })) return { kind: 'written', post: sourceOf(current.file, text) };
    return { kind: 'conflict', post: await this.read(current.file) };
  }

  /** A schedule edit with the project's UTC offset at its time: a file that writes its times with an offset keeps that form. */
  #zoned(edit: PostEdit): PostEdit {
    if (edit.kind !== 'schedule') return edit;
    const { timezone } = this.#project();
    const parsed = parseScheduledAt(edit.at, timezone);
    return parsed.ok ? { ...edit, offset: formatOffset(offsetMs(Date.parse(parsed.instant), timezone)) } : edit;
  }

  /** The copy goes to `at`, else it is a draft: never on the original's time, where a rule or a slot would block it at once. */
  async #duplicate(original: VersionedPostFile, at: string | undefined): Promise<EditOutcome> {
    const { dir, name } = posix.parse(original.file);
    const moved = (text: string) => editPost(text, at === undefined ? { kind: 'unschedule' } : this.#zoned({ kind: 'schedule', at }));
    return this.#createFirst((suffix) => ({ file: posix.join(dir, `${name}-copy${suffix}.md`), text: moved(duplicateText(original.text, `-copy${suffix}`)) }), { relative: true });
  }

  /** A new file in the content folder (`name` relative to it), under the first free name. */
  #create(text: string, name: { dir: string; base: string }): Promise<EditOutcome> {
    return this.#createFirst((suffix) => ({ file: posix.join(name.dir, `${name.base}${suffix}.md`), text }), { relative: false });
  }

  async #createFirst(candidate: (suffix: string) => { file: string; text: string }, options: { relative: boolean }): Promise<EditOutcome> {
    const { root, contentDir } = this.#project();
    for (let attempt = 1; attempt <= MAX_NAMES; attempt++) {
      const { file, text } = candidate(attempt === 1 ? '' : `-${attempt}`);
      const projectFile = options.relative ? file : relativePosix(root, resolve(contentDir, file));
      const path = await this.#checked(projectFile, { exists: false });
      const blocking = await fileInTheWay(path, { root, contentDir });
      if (blocking !== null) {
        throw new InputError(`the new post cannot go in ${blocking}: ${blocking} is a file, not a folder`, { hint: `Rename or move the file ${blocking}, then make the post again.` });
      }
      if (await createFileExclusive(path, text, { root })) return { kind: 'written', post: sourceOf(projectFile, text) };
    }
    throw new InputError(`postsync found no free file name for the new post after ${MAX_NAMES} tries`, { hint: 'Rename or remove some of the files it tried, or make the post in an editor.' });
  }

  /** The absolute path of a post file the page names, once it is known to be one postsync may edit. */
  async #checked(file: unknown, options: { exists: boolean } = { exists: true }): Promise<string> {
    const { root, contentDir } = this.#project();
    if (typeof file !== 'string' || file === '' || file.includes('\\') || file.includes('\0') || posix.isAbsolute(file) || posix.normalize(file) !== file || file.startsWith('../')) {
      throw refused(String(file), 'it is not a project-relative path with forward slashes');
    }
    if (isHiddenPath(file)) throw refused(file, 'a part of it is hidden (starts with a dot)');
    // The calendar lists no post under node_modules (discover.ts): no file there is one to edit.
    if (file.split('/').includes('node_modules')) throw refused(file, 'it is under node_modules, where no post file is');
    if (!file.endsWith('.md')) throw refused(file, 'it is not a Markdown post file (.md)');
    const path = resolve(root, file);
    if (!isInside(contentDir, path) || path === contentDir) throw refused(file, `it is outside the content folder (${relativePosix(root, contentDir) || '.'})`);
    // The content folder may hold the snippets folder (`content: .`): its files are snippets, never posts (discover.ts).
    if (isInSnippets(this.#project(), path)) throw refused(file, `it is in the snippets folder (${relativePosix(root, snippetsDirOf(this.#project()))}), whose files are snippets, not posts`);
    // From the project root: a content folder that is itself a link (a pull request can commit one) leads out of the project.
    await guardWrite(path, { root });
    if (options.exists) {
      const stats = await lstat(path).catch(() => null);
      if (stats === null || !stats.isFile()) throw refused(file, 'there is no such post file (it was moved or removed?)');
    }
    return path;
  }
}

function sourceOf(file: string, bytes: Uint8Array | string): VersionedPostFile {
  return { file, text: typeof bytes === 'string' ? bytes : Buffer.from(bytes).toString('utf8'), version: postVersion(bytes) };
}

/** `2027-02/2027-02-05-draft` for a draft made on a day, `drafts/draft` otherwise. */
function draftName(at: string | undefined): { dir: string; base: string } {
  return at === undefined ? { dir: 'drafts', base: 'draft' } : { dir: at.slice(0, 7), base: `${at.slice(0, 10)}-draft` };
}

/**
 * The first folder on the way from the content folder down to `path` that exists as something
 * other than a folder (project-relative), or null: a file named like a month folder would
 * otherwise fail the write with the file system's own words.
 */
async function fileInTheWay(path: string, place: { root: string; contentDir: string }): Promise<string | null> {
  const folders: string[] = [];
  for (let folder = dirname(path); folder !== place.contentDir && isInside(place.contentDir, folder); folder = dirname(folder)) folders.unshift(folder);
  for (const folder of folders) {
    const stats = await lstat(folder).catch(() => null);
    if (stats === null) return null;
    if (!stats.isDirectory()) return relativePosix(place.root, folder);
  }
  return null;
}

function refused(file: string, why: string): InputError {
  return new InputError(`postsync edits no file ${JSON.stringify(file)}: ${why}`, { hint: 'The calendar edits the Markdown post files of the content folder only.' });
}
