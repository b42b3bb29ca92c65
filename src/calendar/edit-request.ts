import type { PostEdit, ScalarValue } from '../post-edit/index.js';
import type { MediaUpload } from './media-upload.js';

/**
 * What the calendar page asks the edit server to do, as it sends it (JSON). `file` is
 * project-relative with forward slashes, as the calendar names it; `version` is the version of
 * the file the page showed (postVersion).
 */
export type EditRequest =
  | { action: 'edit'; file: string; version: string; edits: PostEdit[] }
  /** A copy in a new file, scheduled at `at` (a free slot the page found), else a draft. */
  | { action: 'duplicate'; file: string; version: string; at?: string }
  /** Puts back the file as it was before the edit that wrote `version` (the page's last edit of it). */
  | { action: 'undo'; file: string; version: string }
  | { action: 'new'; at?: string };

const WALL_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
/** A post's text or an option's value: longer is no caption any network takes. */
const MAX_TEXT = 100_000;
/** Edits of one save: the time, the text, the accounts and their options, the media. */
const MAX_EDITS = 100;
/** A list option's items; a place in `media:` (which holds at most 10). */
const MAX_ITEMS = 100;
/** A media path as `media:` writes it. */
const MAX_PATH = 1000;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The request a JSON body holds, or a sentence saying what is wrong with it. */
export function readEditRequest(body: unknown): EditRequest | string {
  if (typeof body !== 'object' || body === null) return 'the body must be a JSON object';
  const data = body as Record<string, unknown>;
  if (data.action === 'new') {
    if (data.at !== undefined && !isWallTime(data.at)) return '`at` must be a wall time, YYYY-MM-DD HH:mm';
    return data.at === undefined ? { action: 'new' } : { action: 'new', at: data.at as string };
  }
  if (typeof data.file !== 'string' || typeof data.version !== 'string') return '`file` and `version` must be strings';
  if (data.action === 'duplicate') {
    if (data.at !== undefined && !isWallTime(data.at)) return '`at` must be a wall time, YYYY-MM-DD HH:mm';
    return { action: 'duplicate', file: data.file, version: data.version, ...(data.at === undefined ? {} : { at: data.at as string }) };
  }
  if (data.action === 'undo') return { action: 'undo', file: data.file, version: data.version };
  if (data.action !== 'edit') return '`action` must be edit, undo, duplicate or new';
  // One edit, or several made in order and written at once (the editor's save).
  const list = data.edits ?? [data.edit];
  if (!Array.isArray(list) || list.length === 0 || list.length > MAX_EDITS) return `\`edits\` must be a list of 1 to ${MAX_EDITS} edits`;
  const edits: PostEdit[] = [];
  for (const item of list) {
    const edit = readEdit(item);
    if (typeof edit === 'string') return edit;
    edits.push(edit);
  }
  return { action: 'edit', file: data.file, version: data.version, edits };
}

function readEdit(value: unknown): PostEdit | string {
  if (typeof value !== 'object' || value === null) return '`edit` must be an object';
  const edit = value as Record<string, unknown>;
  if (edit.occurrence !== undefined && !(typeof edit.occurrence === 'string' && DATE.test(edit.occurrence))) return '`occurrence` must be a date, YYYY-MM-DD';
  const occurrence = edit.occurrence === undefined ? {} : { occurrence: edit.occurrence as string };
  switch (edit.kind) {
    case 'schedule':
      return isWallTime(edit.at) ? { kind: 'schedule', at: edit.at, ...occurrence } : '`at` must be a wall time, YYYY-MM-DD HH:mm';
    case 'unschedule':
      return { kind: 'unschedule', ...occurrence };
    case 'text':
      return typeof edit.text === 'string' && edit.text.length <= MAX_TEXT ? { kind: 'text', text: edit.text, ...occurrence } : '`text` must be a string';
    case 'accounts':
      return Array.isArray(edit.accounts) && edit.accounts.every((account) => typeof account === 'string' && account.trim() !== '') ? { kind: 'accounts', accounts: edit.accounts as string[] } : '`accounts` must be a list of account names';
    case 'option':
      if (typeof edit.account !== 'string' || typeof edit.name !== 'string' || !/^[A-Za-z][A-Za-z0-9]*$/.test(edit.name)) return '`account` and `name` (an option name) must be strings';
      if (Array.isArray(edit.value)) return edit.value.length <= MAX_ITEMS && edit.value.every((item) => typeof item === 'string' && item.length <= MAX_TEXT) ? { kind: 'option', account: edit.account, name: edit.name, value: edit.value as string[] } : `a list \`value\` must hold at most ${MAX_ITEMS} strings`;
      return isScalar(edit.value) ? { kind: 'option', account: edit.account, name: edit.name, value: edit.value } : '`value` must be a string, a finite number, a boolean, null or a list of strings';
    case 'target-text':
      return typeof edit.account === 'string' && typeof edit.text === 'string' && edit.text.length <= MAX_TEXT ? { kind: 'target-text', account: edit.account, text: edit.text } : '`account` and `text` must be strings';
    case 'media-add':
      if (!isMediaPath(edit.path)) return '`path` must be a media path, project-relative';
      if (edit.alt !== undefined && !(typeof edit.alt === 'string' && edit.alt.length <= MAX_TEXT)) return '`alt` must be a string';
      return { kind: 'media-add', path: edit.path, ...(edit.alt === undefined ? {} : { alt: edit.alt as string }) };
    case 'media-alt':
      return isPlace(edit.index) && typeof edit.alt === 'string' && edit.alt.length <= MAX_TEXT ? { kind: 'media-alt', index: edit.index, alt: edit.alt } : '`index` must be a place in the list and `alt` a string';
    case 'media-path':
      return isPlace(edit.index) && isMediaPath(edit.path) ? { kind: 'media-path', index: edit.index, path: edit.path } : '`index` must be a place in the list and `path` a media path';
    case 'media-remove':
      return isPlace(edit.index) ? { kind: 'media-remove', index: edit.index } : '`index` must be a place in the list';
    case 'media-move':
      return isPlace(edit.from) && isPlace(edit.to) ? { kind: 'media-move', from: edit.from, to: edit.to } : '`from` and `to` must be places in the list';
    default:
      return '`edit.kind` must be schedule, unschedule, text, accounts, option, target-text or a media-… kind';
  }
}

/** The media file a JSON body holds (its bytes in base64), or a sentence saying what is wrong with it. */
export function readMediaUpload(body: unknown): MediaUpload | string {
  if (typeof body !== 'object' || body === null) return 'the body must be a JSON object';
  const data = body as Record<string, unknown>;
  if (typeof data.file !== 'string' || typeof data.name !== 'string' || data.name.length > MAX_PATH) return '`file` and `name` must be strings';
  if (typeof data.data !== 'string' || data.data.length % 4 !== 0 || !BASE64.test(data.data)) return '`data` must be the file\'s bytes in base64';
  const accounts = data.accounts ?? [];
  if (!Array.isArray(accounts) || accounts.length > MAX_ITEMS || !accounts.every((account) => typeof account === 'string')) return '`accounts` must be a list of account ids';
  return { file: data.file, name: data.name, bytes: Buffer.from(data.data, 'base64'), accounts: accounts as string[] };
}

/** A path `media:` can hold: text of one line, no NUL (where it leads is checked as the post is read). */
function isMediaPath(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== '' && value.length <= MAX_PATH && !/[\0\r\n]/.test(value);
}

function isPlace(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value < MAX_ITEMS;
}

function isWallTime(value: unknown): value is string {
  return typeof value === 'string' && WALL_TIME.test(value);
}

function isScalar(value: unknown): value is ScalarValue {
  return value === null || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value)) || (typeof value === 'string' && value.length <= MAX_TEXT);
}
