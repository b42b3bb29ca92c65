import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** The header a script sends the token in; a browser, which can only follow an address, sends it as `?t=`. */
export const TOKEN_HEADER = 'x-postsync-token';
export const TOKEN_PARAM = 't';

/** Why a local server refuses a request: each server answers it in its own format. */
export interface Refusal {
  status: 400 | 403 | 415 | 421;
  reason: 'malformed-url' | 'host' | 'cross-site' | 'token' | 'body';
  message: string;
}

/**
 * What a local server lets through. `hosts` are the names it answers as (`loopbackHosts`); the
 * token is the server's own, made at start (`newToken`). A page server needs it on every request
 * (its printed address holds it); an API whose reads are open to scripts needs it only on a
 * request that changes something, which is every method but GET and HEAD: a route of a guarded
 * server never changes anything on GET or HEAD.
 */
export interface LocalPolicy {
  hosts: ReadonlySet<string>;
  token: string;
  tokenFor: 'every request' | 'changes';
}

/** A random token for one server process: unguessable, and safe in a URL. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** The Host values that name a server on loopback at `port` (and `bound`, the address it listens on). */
export function loopbackHosts(port: number, bound?: string): ReadonlySet<string> {
  const names = ['127.0.0.1', 'localhost', '[::1]'];
  if (bound !== undefined) names.push(bound.includes(':') ? `[${bound}]` : bound);
  return new Set(names.flatMap((name) => (port === 80 ? [name, `${name}:80`] : [`${name}:${port}`])));
}

/** The request's address, or null when it is not one (`http://[`); its path is still undecoded. */
export function requestUrl(request: IncomingMessage): URL | null {
  try {
    return new URL(request.url ?? '/', 'http://local.invalid');
  } catch {
    return null;
  }
}

/** The decoded path of a request, or null when its address or its percent-escapes are malformed (`/media/%`). */
export function decodedPath(request: IncomingMessage): string | null {
  const url = requestUrl(request);
  if (url === null) return null;
  try {
    return decodeURIComponent(url.pathname);
  } catch {
    return null;
  }
}

/** A malformed address is answered (400), never left to throw where the path is read. */
export function checkAddress(request: IncomingMessage): Refusal | null {
  if (decodedPath(request) !== null) return null;
  return { status: 400, reason: 'malformed-url', message: 'the address of the request is malformed (a bad percent-escape?)' };
}

/** A DNS-rebinding page reaches the server under its own name: only the server's names are answered. */
export function checkHost(request: IncomingMessage, hosts: ReadonlySet<string>): Refusal | null {
  const host = request.headers.host?.toLowerCase();
  if (host !== undefined && hosts.has(host)) return null;
  return { status: 421, reason: 'host', message: `this server answers only as ${[...hosts].join(', ')} (the request named ${host ?? 'no Host'})` };
}

/**
 * A Host that names this machine's loopback (`localhost`, `127.x.x.x`, `[::1]`), on any port: a
 * DNS-rebinding page can only send its own name. For a server that a proxy on another port may
 * front; a server reached only directly checks its exact names (checkHost).
 */
export function checkLoopbackName(request: IncomingMessage): Refusal | null {
  const host = request.headers.host?.toLowerCase() ?? '';
  const name = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.split(':')[0]!;
  if (name === 'localhost' || name === '[::1]' || /^127(\.\d{1,3}){3}$/.test(name)) return null;
  return { status: 421, reason: 'host', message: `this server answers only loopback names (localhost, 127.0.0.1, [::1]), not ${host || 'no Host'}` };
}

/**
 * Every check of a local server, in order: a well-formed address, one of its own Host names, no
 * other origin (an `Origin` other than its own, or `Sec-Fetch-Site` cross-site or same-site: a page
 * on another port of this machine is same-site), the token, and a body that only JSON can be (a
 * form post cannot send `application/json` across sites). Null when the request may go on.
 */
export function checkLocalRequest(request: IncomingMessage, policy: LocalPolicy): Refusal | null {
  const first = checkAddress(request) ?? checkHost(request, policy.hosts);
  if (first !== null) return first;
  const origin = request.headers.origin;
  const site = request.headers['sec-fetch-site'];
  const ownOrigin = origin === undefined || (origin.startsWith('http://') && policy.hosts.has(origin.slice('http://'.length).toLowerCase()));
  if (!ownOrigin || site === 'cross-site' || site === 'same-site') {
    return { status: 403, reason: 'cross-site', message: `this server answers no web page of another origin (Origin ${origin ?? 'none'}, Sec-Fetch-Site ${site ?? 'none'})` };
  }
  const changes = request.method !== 'GET' && request.method !== 'HEAD';
  if ((policy.tokenFor === 'every request' || changes) && !holdsToken(request, policy.token)) {
    return { status: 403, reason: 'token', message: `this request needs the token of this server process: open the address postsync printed as it started (it holds ?${TOKEN_PARAM}=), or send the token it printed in the ${TOKEN_HEADER} header` };
  }
  if (changes && !jsonOrNoBody(request)) {
    return { status: 415, reason: 'body', message: `a request body must be JSON with Content-Type: application/json (got ${request.headers['content-type'] ?? 'a body without a Content-Type'})` };
  }
  return null;
}

function holdsToken(request: IncomingMessage, token: string): boolean {
  const header = request.headers[TOKEN_HEADER];
  const given = typeof header === 'string' ? header : (requestUrl(request)?.searchParams.get(TOKEN_PARAM) ?? null);
  if (given === null) return false;
  const [a, b] = [Buffer.from(given), Buffer.from(token)];
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A declared Content-Type must be JSON; a body needs one. */
function jsonOrNoBody(request: IncomingMessage): boolean {
  const type = request.headers['content-type'];
  if (type !== undefined) return type.split(';')[0]!.trim().toLowerCase() === 'application/json';
  return request.headers['transfer-encoding'] === undefined && Number(request.headers['content-length'] ?? '0') === 0;
}
