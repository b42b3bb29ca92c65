import type { IncomingMessage, ServerResponse } from 'node:http';
import { PostsyncError } from '../errors.js';
import { readEditRequest } from './edit-request.js';
import type { PostFileEditor } from './post-file-editor.js';

/** Where the page reads a post file's source (GET `?file=`), and sends its edits (POST, JSON). */
export const POST_SOURCE_PATH = '/post';
export const EDIT_PATH = '/edit';
/** Where the editor's preview renders a typed text (POST, JSON: it changes nothing, but a text is no URL). */
export const RENDER_PATH = '/render';
/** A post file's text is far below this; a larger body is no edit. */
const MAX_BODY_BYTES = 1_000_000;

/**
 * The edit routes of `watch --calendar`, behind the server's guard (token, Host, Origin, JSON
 * bodies only). Answers are JSON: the file as read or written (200), the file as it is now when
 * the page's version is stale (409), or what was wrong (400, 404, 413) with a hint.
 */
export async function answerEdit(request: IncomingMessage, response: ServerResponse, options: { editor: PostFileEditor; path: string }): Promise<void> {
  try {
    if (options.path === POST_SOURCE_PATH) {
      if (request.method !== 'GET') return send(response, 405, { message: `${POST_SOURCE_PATH} is read with GET` }, { allow: 'GET' });
      const file = new URL(request.url ?? '/', 'http://local.invalid').searchParams.get('file');
      return send(response, 200, await options.editor.read(file));
    }
    if (options.path === RENDER_PATH) {
      if (request.method !== 'POST') return send(response, 405, { message: `${RENDER_PATH} takes POST with a JSON body` }, { allow: 'POST' });
      const body = (await readJson(request)) as { file?: unknown; text?: unknown } | null | typeof TOO_LARGE;
      if (body === TOO_LARGE) return send(response, 413, { message: `a render is at most ${MAX_BODY_BYTES} bytes of JSON` });
      if (typeof body?.text !== 'string' || body.text.length > MAX_BODY_BYTES) return send(response, 400, { message: 'a render takes `file` and `text`' });
      return send(response, 200, await options.editor.render(body.file, body.text));
    }
    // A change is never a GET (a link or an image cannot make one).
    if (request.method !== 'POST') return send(response, 405, { message: `${EDIT_PATH} takes POST with a JSON body` }, { allow: 'POST' });
    const body = await readJson(request);
    if (body === TOO_LARGE) return send(response, 413, { message: `an edit is at most ${MAX_BODY_BYTES} bytes of JSON` });
    const edit = readEditRequest(body);
    if (typeof edit === 'string') return send(response, 400, { message: `this is no edit: ${edit}` });
    const outcome = await options.editor.apply(edit);
    if (outcome.kind === 'conflict') {
      return send(response, 409, { message: `${outcome.post.file} changed on disk since this page read it: nothing was written. Here is the file as it is now; make the edit again on it.`, post: outcome.post });
    }
    return send(response, 200, outcome.post);
  } catch (error) {
    if (error instanceof PostsyncError) return send(response, 400, { message: error.message, ...(error.hint === undefined ? {} : { hint: error.hint }) });
    // A file system failure (permissions, a full disk): the page shows it; nothing was half-written (writes are atomic).
    return send(response, 500, { message: `the edit failed: ${error instanceof Error ? error.message : String(error)}` });
  }
}

const TOO_LARGE = Symbol('too large');

/** The body as JSON (null when it is none); past the bound its bytes are read and dropped, so the sender gets the answer rather than a reset connection. */
async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= MAX_BODY_BYTES) chunks.push(chunk);
  }
  if (size > MAX_BODY_BYTES) return TOO_LARGE;
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    return null;
  }
}

function send(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers }).end(`${JSON.stringify(body)}\n`);
}
