import type { PostEdit } from '../../post-edit/edit-post.js';
import { withPageToken } from './address.js';

/** A post file as the edit server has it: its source text and the version an edit names; its `media:` entries and accounts' own texts as written. */
export interface EditablePostFile {
  file: string;
  text: string;
  version: string;
  media?: { path: string; alt?: string }[];
  /** `content:` of each account, by the name it is written as. */
  texts?: Record<string, string>;
}

/** A media file the server added to the project: the path `media:` names it by. */
export interface AddedMedia {
  path: string;
  kind: string;
  contentType: string;
  sizeBytes: number;
}

export interface Rendered {
  text: string;
  problems: string[];
}

/** What the server answered: the file written, the file as it is now (it changed on disk), or why it refused. */
export type EditAnswer = { kind: 'written'; post: EditablePostFile } | { kind: 'conflict'; message: string; post: EditablePostFile } | { kind: 'refused'; message: string };

/**
 * The page's calls to the edit server of `watch --calendar` (`data-edit` names it): JSON bodies,
 * the page's token passed on, so that no other page can make them.
 */
export class EditClient {
  readonly #edit: string;
  readonly #source: string;
  readonly #render: string;
  readonly #upload: string;

  constructor(editPath: string) {
    this.#edit = editPath;
    this.#source = editPath.replace(/edit$/, 'post');
    this.#render = editPath.replace(/edit$/, 'render');
    this.#upload = editPath.replace(/edit$/, 'upload');
  }

  /** Adds a media file to the project for a post (checked against `accounts`); its path, or why not. */
  async upload(post: EditablePostFile, file: File, accounts: readonly string[]): Promise<AddedMedia | string> {
    const data = await base64(file);
    let response: Response;
    try {
      response = await fetch(withPageToken(this.#upload), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ file: post.file, name: file.name, data, accounts }) });
    } catch {
      return 'the watch is not reachable: is `postsync watch --calendar` still running?';
    }
    const answer = (await response.json().catch(() => ({}))) as Partial<AddedMedia> & { message?: string; hint?: string };
    return response.ok ? (answer as AddedMedia) : sentences(answer.message ?? `the file was refused (${response.status})`, answer.hint);
  }

  /** A typed text as it would go out: `{{ }}` filled in by the watch, with what could not be. */
  async render(file: string, text: string): Promise<Rendered> {
    try {
      const response = await fetch(withPageToken(this.#render), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ file, text }) });
      if (response.ok) return (await response.json()) as Rendered;
    } catch {
      // The watch is gone: the preview shows the text as typed.
    }
    return { text, problems: [] };
  }

  async read(file: string): Promise<EditablePostFile | string> {
    const url = new URL(withPageToken(this.#source), location.href);
    url.searchParams.set('file', file);
    const response = await fetch(url);
    const body = (await response.json()) as EditablePostFile & { message?: string };
    return response.ok ? body : (body.message ?? `the file could not be read (${response.status})`);
  }

  edit(post: EditablePostFile, edits: readonly PostEdit[]): Promise<EditAnswer> {
    return this.#send({ action: 'edit', file: post.file, version: post.version, edits });
  }

  /** A copy of the post, scheduled at `at`, or a draft. */
  duplicate(post: EditablePostFile, at: string | undefined): Promise<EditAnswer> {
    return this.#send({ action: 'duplicate', file: post.file, version: post.version, ...(at === undefined ? {} : { at }) });
  }

  /** The edit that wrote `version` of `file`, taken back. */
  undo(edit: { file: string; version: string }): Promise<EditAnswer> {
    return this.#send({ action: 'undo', file: edit.file, version: edit.version });
  }

  create(at: string | undefined): Promise<EditAnswer> {
    return this.#send(at === undefined ? { action: 'new' } : { action: 'new', at });
  }

  async #send(body: unknown): Promise<EditAnswer> {
    let response: Response;
    try {
      response = await fetch(withPageToken(this.#edit), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    } catch {
      return { kind: 'refused', message: 'the watch is not reachable: is `postsync watch --calendar` still running?' };
    }
    const answer = (await response.json().catch(() => ({}))) as { message?: string; hint?: string; post?: EditablePostFile } & Partial<EditablePostFile>;
    if (response.status === 409 && answer.post !== undefined) return { kind: 'conflict', message: answer.message ?? 'the file changed on disk', post: answer.post };
    if (!response.ok) return { kind: 'refused', message: sentences(answer.message ?? `the edit was refused (${response.status})`, answer.hint) };
    return { kind: 'written', post: answer as EditablePostFile };
  }
}

/** The date of an occurrence of a repeat (`key@2027-01-18`), or undefined for any other post. */
export function occurrenceOf(key: string): string | undefined {
  return /@(\d{4}-\d{2}-\d{2})$/.exec(key)?.[1];
}

/** A post file's body (after its front-matter), as the editor shows it: its source, `{{ }}` and all. */
export function bodyOf(text: string): string {
  const match = /^---[ \t]*\r?\n(?:[\s\S]*?\r?\n)?---[ \t]*(?:\r?\n|$)/.exec(text);
  return (match === null ? text : text.slice(match[0].length)).replace(/\r\n/g, '\n').trim();
}

/** A message and its hint as sentences: the message ends with its full stop before the hint. */
export function sentences(message: string, hint: string | undefined): string {
  if (hint === undefined || hint === '') return message;
  return `${/[.!?:]$/.test(message) ? message : `${message}.`} ${hint}`;
}

/** A file's bytes in base64 (the upload's JSON). */
async function base64(file: Blob): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let start = 0; start < bytes.length; start += 0x8000) binary += String.fromCharCode(...bytes.subarray(start, start + 0x8000));
  return btoa(binary);
}
