import type { IncomingMessage, ServerResponse } from 'node:http';
import { ErrorCodes } from '../../api/error-codes.js';
import { checkAddress, checkLoopbackName } from '../../local-server/guard.js';
import type { Caller, KeyRing } from './auth.js';
import { parseJsonBody, readLimitedBody, requireJsonContentType } from './body.js';
import type { Chaos } from './chaos.js';
import type { ApiCall, Router, Services } from './context.js';
import { ApiError, notFound, type Reply } from '../protocol/envelope.js';
import { Exchange } from './exchange.js';
import { refusalError } from './local-refusal.js';
import { publishDue } from '../rules/publish.js';
import type { RateLimiter } from '../rules/rate-limit.js';
import type { RequestLog } from './request-log.js';

export const API_PREFIX = '/public/v1';
export const STORAGE_PREFIX = '/_storage/';
export const CONTROL_PREFIX = '/_emulator/';

/** What the request listener dispatches to; assembled by startEmulator. */
export interface Endpoints {
  services: Services;
  keys: KeyRing;
  limiter: RateLimiter;
  router: Router;
  log: RequestLog;
  chaos: Chaos;
  /** Whether it listens on loopback, where every request's Host must be a loopback name; elsewhere clients name it as they reach it. */
  loopbackBind(): boolean;
  control(exchange: Exchange): Promise<void>;
  storage(exchange: Exchange): Promise<void>;
}

/** Methods whose API routes take a JSON body. */
const BODY_METHODS: ReadonlySet<string> = new Set(['POST', 'PATCH']);

const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Query string for the log, without storage signatures. */
function loggedQuery(url: URL): string {
  const query = new URLSearchParams(url.search);
  query.delete('sig');
  return query.toString();
}

/**
 * The request listener. First for every request: a well-formed address (400) and, on a loopback
 * bind, a loopback Host name on any port (421: a DNS-rebinding page names its own host; a proxy
 * on another port of this machine may front the emulator). Then the store is brought up to date
 * with what other processes serving the same --data folder wrote. Then, for API requests: chaos
 * fault → body (413 while reading) → key (401/403) → project rate limit (429) → for a request that
 * may change the store, the transaction begins (store lock) → due posts published → route (404
 * unknown path, 405 with `Allow` for another method) → Content-Type of a POST/PATCH body (415) →
 * handler, which checks permissions, parses and validates → journal commit (the lock released) →
 * answer.
 */
export function createListener(endpoints: Endpoints): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const exchange = new Exchange(req, res);
    dispatch(endpoints, exchange).catch(async (error: unknown) => {
      // Changes made before the failure (e.g. posts published on the way) are made durable first.
      await endpoints.services.commit().catch(() => undefined);
      exchange.error(error);
    });
  };
}

async function dispatch(endpoints: Endpoints, exchange: Exchange): Promise<void> {
  const { path } = exchange;
  const refusal = checkAddress(exchange.req) ?? (endpoints.loopbackBind() ? checkLoopbackName(exchange.req) : null);
  if (refusal !== null) {
    exchange.req.resume();
    throw refusalError(refusal);
  }
  await endpoints.services.refresh();
  if (path.startsWith(CONTROL_PREFIX)) return endpoints.control(exchange);
  const isApi = path === API_PREFIX || path.startsWith(`${API_PREFIX}/`);
  const isStorage = path.startsWith(STORAGE_PREFIX);
  const header = exchange.req.headers['idempotency-key'];
  exchange.entry = {
    method: exchange.method,
    path,
    query: loggedQuery(exchange.url),
    status: null,
    idempotencyKey: typeof header === 'string' ? header : null,
    requestId: exchange.requestId,
    time: endpoints.services.clock.nowIso(),
  };
  endpoints.log.add(exchange.entry);
  if (!isApi && !isStorage) throw notFound(`path ${path} (the API is under ${API_PREFIX})`);

  const fault = endpoints.chaos.next();
  if (fault) {
    exchange.fault = fault;
    exchange.entry.fault = fault.kind;
    if (fault.kind === 'reset') return exchange.drop();
    if (fault.kind === 'slow') await delay(fault.delayMs);
    if (fault.kind === '500') throw new ApiError(500, ErrorCodes.internalError, 'injected fault (chaos): internal error');
    if (fault.kind === '503') throw new ApiError(503, ErrorCodes.serviceUnavailable, 'injected fault (chaos): service unavailable');
    if (fault.kind === '429') throw new ApiError(429, ErrorCodes.rateLimited, 'injected fault (chaos): rate limited', { 'Retry-After': '1' });
  }
  if (isStorage) return endpoints.storage(exchange);
  return api(endpoints, exchange);
}

async function api(endpoints: Endpoints, exchange: Exchange): Promise<void> {
  const { services } = endpoints;
  const raw = await readLimitedBody(exchange.req);
  const caller = endpoints.keys.authenticate(exchange.req.headers.authorization, services.clock.now());
  for (const [name, value] of Object.entries(endpoints.limiter.take(caller.projectId, services.clock.now()))) {
    exchange.res.setHeader(name, value);
  }
  // A read answers from memory, beside other requests; anything that may change the store (a
  // write, or a due post to publish first) is a transaction.
  const now = services.clock.now();
  const changes = exchange.method !== 'GET' && exchange.method !== 'HEAD';
  const reply = changes || services.store.hasDue(now) ? await services.transaction(() => route(endpoints, exchange, caller, raw, { publish: true })) : await route(endpoints, exchange, caller, raw, { publish: false });
  exchange.reply(reply);
}

async function route(endpoints: Endpoints, exchange: Exchange, caller: Caller, raw: Buffer, options: { publish: boolean }): Promise<Reply> {
  const { services } = endpoints;
  if (options.publish) publishDue(services.store);
  const subPath = exchange.path.slice(API_PREFIX.length) || '/';
  const match = endpoints.router.match(exchange.method, subPath);
  if (!match) {
    const methods = endpoints.router.methodsFor(subPath);
    if (methods.length === 0) throw notFound(`route ${exchange.method} ${subPath}`);
    const allowed = methods.join(', ');
    throw new ApiError(405, ErrorCodes.methodNotAllowed, `method ${exchange.method} is not allowed on ${API_PREFIX}${subPath}; allowed: ${allowed}`, { Allow: allowed });
  }
  if (BODY_METHODS.has(exchange.method)) requireJsonContentType(exchange.req.headers['content-type'], raw);
  let parsed: { value: unknown } | undefined;
  const call: ApiCall = {
    services,
    caller,
    project: services.store.project(caller.projectId),
    params: match.params,
    query: exchange.url.searchParams,
    headers: exchange.req.headers,
    requestId: exchange.requestId,
    json: () => (parsed ??= { value: parseJsonBody(raw) }).value,
  };
  const reply = await match.route.handler(call);
  await services.commit();
  return reply;
}
