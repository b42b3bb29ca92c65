import type { IncomingMessage, ServerResponse } from 'node:http';
import { PostsyncError } from '../errors.js';
import { mediaEntries, targetTexts } from '../post-edit/index.js';
import { readEditRequest, readMediaUpload } from './edit-request.js';
import { addMedia, MAX_UPLOAD_BYTES, type MediaContext } from './media-upload.js';
import type { PostFileEditor, VersionedPostFile } from './post-file-editor.js';

/** Where the page reads a post file's source (GET `?file=`), and sends its edits (POST, JSON). */
export const POST_SOURCE_PATH = '/post';
export const EDIT_PATH = '/edit';
/** Where the editor's preview renders a typed text (POST, JSON: it changes nothing, but a text is no URL). */
export const RENDER_PATH = '/render';
/** Where the editor adds a media file to the project (POST, JSON: the file's bytes in base64); the save then names it in `media:`. */
export const UPLOAD_PATH = '/upload';
/** A post file's text is far below this; a larger body is no edit. */
const MAX_BODY_BYTES = 1_000_000;
/** A media file of MAX_UPLOAD_BYTES in base64, and its names. */
const MAX_UPLOAD_BODY_BYTES = Math.ceil(MAX_UPLOAD_BYTES / 3) * 4 + 64 * 1024;

/**
 * The edit routes of `watch --calendar`, behind the server's guard (token, Host, Origin, JSON
 * bodies only). Answers are JSON: the file as read or written (200), the file as it is now when
 * the page's version is stale (409), or what was wrong (400, 404, 413) with a hint.
 */
export async function answerEdit(request: IncomingMessage, response: ServerResponse, options: { editor: PostFileEditor; path: string; media: () => Omit<MediaContext, 'editor'> }): Promise<void> {
  try {
    if (options.path === POST_SOURCE_PATH) {
      if (request.method !== 'GET') return send(response, 405, { message: `${POST_SOURCE_PATH} is read with GET` }, { allow: 'GET' });
      const file = new URL(request.url ?? '/', 'http://local.invalid').searchParams.get('file');
      return send(response, 200, forEditor(await options.editor.read(file)));
    }
    if (options.path === UPLOAD_PATH) {
      if (request.method !== 'POST') return send(response, 405, { message: `${UPLOAD_PATH} takes POST with a JSON body` }, { allow: 'POST' });
      const body = await readJson(request, MAX_UPLOAD_BODY_BYTES);
      if (body === TOO_LARGE) return send(response, 413, { message: `the calendar adds media files of at most ${MAX_UPLOAD_BYTES / 1024 / 1024} MiB`, hint: 'Copy a larger file into the media folder and add it to `media:` in an editor.' });
      const upload = readMediaUpload(body);
      if (typeof upload === 'string') return send(response, 400, { message: `this is no media file: ${upload}` });
      return send(response, 200, await addMedia(upload, { editor: options.editor, ...options.media() }));
    }
    if (options.path === RENDER_PATH) {
      if (request.method !== 'POST') return send(response, 405, { message: `${RENDER_PATH} takes POST with a JSON body` }, { allow: 'POST' });
      const body = (await readJson(request, MAX_BODY_BYTES)) as { file?: unknown; text?: unknown } | null | typeof TOO_LARGE;
      if (body === TOO_LARGE) return send(response, 413, { message: `a render is at most ${MAX_BODY_BYTES} bytes of JSON` });
      if (typeof body?.text !== 'string' || body.text.length > MAX_BODY_BYTES) return send(response, 400, { message: 'a render takes `file` and `text`' });
      return send(response, 200, await options.editor.render(body.file, body.text));
    }
    // A change is never a GET (a link or an image cannot make one).
    if (request.method !== 'POST') return send(response, 405, { message: `${EDIT_PATH} takes POST with a JSON body` }, { allow: 'POST' });
    const body = await readJson(request, MAX_BODY_BYTES);
    if (body === TOO_LARGE) return send(response, 413, { message: `an edit is at most ${MAX_BODY_BYTES} bytes of JSON` });
    const edit = readEditRequest(body);
    if (typeof edit === 'string') return send(response, 400, { message: `this is no edit: ${edit}` });
    const outcome = await options.editor.apply(edit);
    if (outcome.kind === 'conflict') {
      return send(response, 409, { message: `${outcome.post.file} changed on disk since this page read it: nothing was written. Here is the file as it is now; make the edit again on it.`, post: forEditor(outcome.post) });
    }
    return send(response, 200, forEditor(outcome.post));
  } catch (error) {
    if (error instanceof PostsyncError) return send(response, 400, { message: error.message, ...(error.hint === undefined ? {} : { hint: error.hint }) });
    // A file system failure (permissions, a full disk): the page shows it; nothing was half-written (writes are atomic).
    return send(response, 500, { message: `the edit failed: ${error instanceof Error ? error.message : String(error)}` });
  }
}

const TOO_LARGE = Symbol('too large');

/** The body as JSON (null when it is none); past the bound its bytes are read and dropped, so the sender gets the answer rather than a reset connection. */
async function readJson(request: IncomingMessage, max: number): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= max) chunks.push(chunk);
  }
  if (size > max) return TOO_LARGE;
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    return null;
  }
}

/** A post file as the page reads it, with what the editor shows of its front-matter as written: its `media:` entries and its accounts' own texts. */
function forEditor(post: VersionedPostFile): VersionedPostFile & { media: ReturnType<typeof mediaEntries>; texts: Record<string, string> } {
  return { ...post, media: mediaEntries(post.text), texts: targetTexts(post.text) };
}

function send(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers }).end(`${JSON.stringify(body)}\n`);
}
