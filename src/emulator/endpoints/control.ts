import { isIP } from 'node:net';
import { ErrorCodes } from '../../api/error-codes.js';
import { checkLocalRequest, type LocalPolicy } from '../../local-server/guard.js';
import { parseJsonBody, readLimitedBody } from '../http/body.js';
import { type Chaos, type ChaosSpec, parseChaosSpec } from '../http/chaos.js';
import { ApiError, notFound, ok, validationFailed, type Reply } from '../protocol/envelope.js';
import type { Exchange } from '../http/exchange.js';
import { refusalError } from '../http/local-refusal.js';
import type { RequestLog } from '../http/request-log.js';
import { CONTROL_PREFIX } from '../http/server.js';
import { isPlainObject, parseRfc3339 } from '../protocol/validate.js';

/** Whether a peer address is the local machine (127.0.0.0/8, ::1, or IPv4-mapped loopback). */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  if (isIP(v4) === 4) return v4.startsWith('127.');
  return address === '::1';
}

/** What the control endpoints act on. */
export interface ControlTarget {
  /** Its names and the control token: reads are open to a loopback script, changes need the token. */
  policy(): LocalPolicy;
  log: RequestLog;
  chaos: Chaos;
  /** Moves the clock, publishes what became due, makes it durable; returns how many posts changed. */
  moveClock(change: { advanceSeconds: number } | { now: Date }): Promise<{ now: string; published: number }>;
  reset(): Promise<void>;
}

function bodyObject(raw: Buffer): Record<string, unknown> {
  const body = parseJsonBody(raw) ?? {};
  if (!isPlainObject(body)) throw validationFailed(['body must be a JSON object']);
  return body;
}

async function clock(target: ControlTarget, body: Record<string, unknown>): Promise<Reply> {
  const { advanceSeconds, now } = body;
  const problems: string[] = [];
  if ((advanceSeconds === undefined) === (now === undefined)) problems.push('send exactly one of advanceSeconds (number) or now (date-time)');
  if (advanceSeconds !== undefined && (typeof advanceSeconds !== 'number' || !Number.isFinite(advanceSeconds))) problems.push('advanceSeconds must be a number');
  const nowMs = typeof now === 'string' ? parseRfc3339(now) : null;
  if (now !== undefined && nowMs === null) problems.push('now must be an RFC 3339 date-time with Z or an offset');
  if (problems.length > 0) throw validationFailed(problems);
  const change = nowMs !== null ? { now: new Date(nowMs) } : { advanceSeconds: advanceSeconds as number };
  return ok(await target.moveClock(change));
}

function faults(chaos: Chaos, body: Record<string, unknown>): Reply {
  let spec: ChaosSpec;
  try {
    if (typeof body.spec === 'string') spec = parseChaosSpec(body.spec);
    else {
      const kinds = Array.isArray(body.kinds) ? body.kinds.join('+') : undefined;
      const parts = [body.rate !== undefined ? `rate=${String(body.rate)}` : '', body.seed !== undefined ? `seed=${String(body.seed)}` : '', kinds ? `kinds=${kinds}` : ''];
      spec = parseChaosSpec(parts.filter(Boolean).join(','));
    }
  } catch (error) {
    throw validationFailed([(error as Error).message]);
  }
  chaos.configure(spec);
  return ok(spec);
}

/**
 * `/_emulator/...`: GET/DELETE requests (the request log), POST clock, POST faults
 * (`{ "spec": "rate=0.2,seed=42" }` or `{ rate, seed, kinds: [...] }`), POST reset. Only loopback
 * peers are served (403 otherwise); chaos and the rate limit never apply here.
 *
 * A web page in a browser on this machine is a loopback peer too: no request from a page of
 * another origin is answered (a read would show the log to it, a form post would move the clock or
 * wipe the data), every change needs the control token of this process and a JSON body, and no
 * GET changes anything.
 */
export async function handleControl(target: ControlTarget, exchange: Exchange): Promise<void> {
  if (!isLoopbackAddress(exchange.req.socket.remoteAddress)) {
    exchange.req.resume();
    throw new ApiError(403, ErrorCodes.loopbackOnly, 'control endpoints answer loopback clients only');
  }
  const refusal = checkLocalRequest(exchange.req, target.policy());
  if (refusal !== null) {
    exchange.req.resume();
    throw refusalError(refusal);
  }
  const raw = await readLimitedBody(exchange.req);
  const route = `${exchange.method} ${exchange.path.slice(CONTROL_PREFIX.length).replace(/\/$/, '')}`;
  let reply: Reply;
  switch (route) {
    case 'GET requests':
      reply = ok(target.log.list());
      break;
    case 'DELETE requests':
      target.log.clear();
      reply = ok({ cleared: true });
      break;
    case 'POST clock':
      reply = await clock(target, bodyObject(raw));
      break;
    case 'POST faults':
      reply = faults(target.chaos, bodyObject(raw));
      break;
    case 'POST reset':
      await target.reset();
      reply = ok({ reset: true });
      break;
    default:
      throw notFound(`control route ${route} (routes: GET|DELETE requests, POST clock, POST faults, POST reset)`);
  }
  exchange.reply(reply);
}
