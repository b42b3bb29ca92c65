import { createReadStream } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Capabilities } from '../api/types.js';
import { extname } from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { checkAddress, checkHost, checkLocalRequest, decodedPath, type LocalPolicy, loopbackHosts, newToken, TOKEN_PARAM } from '../local-server/guard.js';
import { CalendarVersions } from './calendar-events.js';
import { answerEdit, EDIT_PATH, POST_SOURCE_PATH, RENDER_PATH, UPLOAD_PATH } from './edit-endpoint.js';
import type { PostFileEditor } from './post-file-editor.js';
import type { Calendar } from './calendar-of.js';
import { renderCalendarPage } from './page.js';
import { trusted, type SafeHtml } from './escape.js';

/** Where a served page finds its thumbnails (the media prefix of `watch --calendar`). */
export const SERVED_MEDIA_PREFIX = '/media/';
const EVENTS_PATH = '/events';
/** Asked for by browsers and tools on their own, without the page's token: answered with no content (the page names its icon inline). */
const ICON_PATH = '/favicon.ico';
/** A comment line now and then keeps idle connections (and proxies) from closing the stream. */
const KEEP_ALIVE_MS = 15_000;
/** Reloads itself (a meta refresh would not: the URL may hold a #month, and going to the same URL and fragment loads nothing). */
const PAGE_BEING_MADE = trusted('<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>Content calendar</title><script>setTimeout(() => location.reload(), 1000);</script></head><body><p>The calendar is being made; this page loads it in a moment.</p></body></html>\n');
const TYPES: Record<string, string> = { '.jpg': 'image/jpeg', '.png': 'image/png', '.webp': 'image/webp', '.gif': 'image/gif' };

/**
 * The calendar page of `watch --calendar`, served on loopback: `/` is the page (of the latest
 * calendar), `/events` a stream of server-sent events, one after every `update` with what changed
 * (calendar-events.ts), which the page draws without a reload; `/media/…` the thumbnails. It
 * only serves what it is given: it reads no post and calls no API.
 *
 * It shows unpublished drafts, so it answers only the address it printed: its loopback names
 * (no DNS rebinding), no page of another origin, and every request with the token of this
 * process, which the printed address holds and the page passes on to everything it loads.
 */
export class CalendarServer {
  readonly #server: Server;
  readonly #token = newToken();
  readonly #streams = new Set<ServerResponse>();
  #calendar: Calendar | null = null;
  readonly #versions = new CalendarVersions();
  #page: SafeHtml | null = null;
  /** The page compressed, by encoding, made once per calendar on the first request that accepts it. */
  #compressed = new Map<Encoding, Buffer>();
  #keepAlive: NodeJS.Timeout | undefined;
  /** Edits the post files (`watch --calendar`); null: the page is read-only. */
  readonly #editor: PostFileEditor | null;

  private constructor(editor: PostFileEditor | null) {
    this.#editor = editor;
    this.#server = createServer((request, response) => this.#handle(request, response));
  }

  /** Listens on 127.0.0.1 only: no other machine reaches the page. With `editor`, the page edits the post files. */
  static async start(options: { port?: number; editor?: PostFileEditor }): Promise<CalendarServer> {
    const server = new CalendarServer(options.editor ?? null);
    await new Promise<void>((resolve, reject) => {
      server.#server.once('error', reject);
      server.#server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
    });
    server.#keepAlive = setInterval(() => server.#broadcast(': keep-alive\n\n'), KEEP_ALIVE_MS);
    server.#keepAlive.unref();
    return server;
  }

  /** The address to open: the page, with the token of this process. */
  get url(): string {
    const { port } = this.#server.address() as AddressInfo;
    return `http://127.0.0.1:${port}/?${TOKEN_PARAM}=${this.#token}`;
  }

  /** Serves `calendar` from now on and sends what changed to every open page. */
  update(calendar: Calendar): void {
    this.#calendar = calendar;
    this.#page = null;
    this.#compressed.clear();
    const event = this.#versions.next(calendar.model, { wanted: this.#streams.size > 0 });
    if (event !== null) this.#broadcast(event);
  }

  async close(): Promise<void> {
    clearInterval(this.#keepAlive);
    for (const stream of this.#streams) stream.end();
    this.#streams.clear();
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  /** Every request, the page's own included, holds the token: the page passes it on (browser/address.ts). */
  #policy(): LocalPolicy {
    return { hosts: loopbackHosts((this.#server.address() as AddressInfo).port), token: this.#token, tokenFor: 'every request' };
  }

  #broadcast(text: string): void {
    for (const stream of this.#streams) stream.write(text);
  }

  #handle(request: IncomingMessage, response: ServerResponse): void {
    if (isIconRequest(request)) {
      // No token (the browser asks on its own), but still only this server's names.
      const refusal = checkAddress(request) ?? checkHost(request, this.#policy().hosts);
      return void response.writeHead(refusal?.status ?? 204, { 'cache-control': 'max-age=86400' }).end();
    }
    const refusal = checkLocalRequest(request, this.#policy());
    if (refusal !== null) return void response.writeHead(refusal.status, { 'content-type': 'text/plain; charset=utf-8' }).end(`${refusal.message}\n`);
    const path = decodedPath(request)!;
    if (this.#editor !== null && (path === POST_SOURCE_PATH || path === EDIT_PATH || path === RENDER_PATH || path === UPLOAD_PATH)) {
      return void answerEdit(request, response, { editor: this.#editor, path, media: () => this.#mediaRules() }).catch(() => response.destroy());
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') return void response.writeHead(405, { allow: 'GET, HEAD' }).end();
    if (path === '/' || path === '/index.html') return this.#sendPage(request, response);
    if (path === EVENTS_PATH) return this.#openStream(request, response);
    if (path.startsWith(SERVED_MEDIA_PREFIX)) return this.#sendMedia(path, response);
    response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found\n');
  }

  /** The rules a media file the page adds is checked against: the accounts' of the calendar shown. */
  #mediaRules(): { capabilities: ReadonlyMap<string, Capabilities>; label: (account: string) => string } {
    const labels = new Map((this.#calendar?.model.accounts ?? []).map((account) => [account.id, account.label]));
    return { capabilities: this.#calendar?.capabilities ?? new Map(), label: (account) => labels.get(account) ?? account };
  }

  #sendPage(request: IncomingMessage, response: ServerResponse): void {
    // Opened before the first calendar is made (the URL is printed as the watch starts): a page that loads itself again.
    if (this.#calendar === null) return void response.writeHead(503, { 'content-type': 'text/html; charset=utf-8', 'retry-after': '1', 'cache-control': 'no-store' }).end(PAGE_BEING_MADE.toString());
    // The page says which calendar it holds: its event stream starts from there.
    this.#page ??= renderCalendarPage(this.#calendar.model, { events: `${EVENTS_PATH}?since=${this.#versions.version}`, ...(this.#editor === null ? {} : { edit: EDIT_PATH }) });
    // The address holds the token: no other site is told it.
    const headers = { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'referrer-policy': 'same-origin', vary: 'accept-encoding' };
    const encoding = encodingFor(request.headers['accept-encoding']);
    if (encoding === null) return void response.writeHead(200, headers).end(this.#page.toString());
    let body = this.#compressed.get(encoding);
    if (body === undefined) this.#compressed.set(encoding, (body = compress(this.#page.toString(), encoding)));
    response.writeHead(200, { ...headers, 'content-encoding': encoding }).end(body);
  }

  #openStream(request: IncomingMessage, response: ServerResponse): void {
    response.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive' });
    // The browser reconnects on its own after a second if the stream drops.
    response.write('retry: 1000\n\n');
    // A page holding another calendar (it reconnects after missing one, or asks anew) gets the whole latest one first.
    const held = request.headers['last-event-id'] ?? new URL(request.url ?? '/', 'http://localhost').searchParams.get('since');
    if (Number(held) !== this.#versions.version) response.write(this.#versions.whole());
    this.#streams.add(response);
    request.on('close', () => this.#streams.delete(response));
  }

  /** Only the thumbnails the current calendar shows: a name outside that list is not a file it serves. */
  #sendMedia(path: string, response: ServerResponse): void {
    const file = this.#calendar?.thumbnails.get(path);
    if (file === undefined) return void response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found\n');
    const stream = createReadStream(file);
    stream.once('open', () => response.writeHead(200, { 'content-type': TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream', 'cache-control': 'no-cache' }));
    stream.once('error', () => (response.headersSent ? response.destroy() : response.writeHead(404).end()));
    stream.pipe(response);
  }
}

function isIconRequest(request: IncomingMessage): boolean {
  return (request.method === 'GET' || request.method === 'HEAD') && decodedPath(request) === ICON_PATH;
}

type Encoding = 'br' | 'gzip';

/** The encoding the page goes out in: Brotli, else gzip, when the client accepts it (`q=0` refuses one); null: as it is. */
export function encodingFor(accepted: string | undefined): Encoding | null {
  const offered = new Map(
    (accepted ?? '').split(',').map((part) => {
      const [name = '', ...parameters] = part.trim().toLowerCase().split(';');
      const q = parameters.map((parameter) => /^\s*q=([\d.]+)\s*$/.exec(parameter)?.[1]).find((value) => value !== undefined);
      return [name.trim(), q === undefined ? 1 : Number(q)] as const;
    }),
  );
  const takes = (name: Encoding) => (offered.get(name) ?? offered.get('*') ?? 0) > 0;
  return takes('br') ? 'br' : takes('gzip') ? 'gzip' : null;
}

/** The page is made again after every save: a middle Brotli quality compresses it nearly as well, many times faster. */
function compress(text: string, encoding: Encoding): Buffer {
  return encoding === 'br' ? brotliCompressSync(text, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5, [zlib.BROTLI_PARAM_SIZE_HINT]: Buffer.byteLength(text) } }) : gzipSync(text);
}
