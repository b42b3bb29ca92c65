import { performance } from 'node:perf_hooks';
import { PostsyncError } from '../errors.js';
import type { EmitEvent } from './events.js';
import { WindowEstimate, type Sample } from './rate-window.js';

/** What one API answer said about the project's rate limit. */
export interface RateAnswer {
  status: number;
  limit?: number;
  remaining?: number;
  retryAfterSeconds?: number;
}

/** Permission to send one request; hand it back to `settle` with the answer. */
export interface PacerTicket {
  readonly seq: number;
  readonly sentAt: number;
  readonly inFlightAtSend: number;
  readonly probe: boolean;
}

interface Waiter {
  resolve: (ticket: PacerTicket) => void;
  reject: (error: unknown) => void;
}

/** Pace at this share of limit ÷ window. */
const SAFETY = 0.95;
const THROTTLE_EVENT_MS = 1000;
/** While the window is unknown, the first paced sample goes this long after the window start. */
const FIRST_SAMPLE_MS = 50;
const MIN_SPREAD_SAMPLES = 8;

/**
 * One shared limiter per client, so concurrent work slows down before the project's limit rather
 * than collecting 429s.
 *
 * It counts what it may still send: an answer's `X-RateLimit-Remaining`, minus every request sent
 * after it (and those still in flight when it left).
 * The server does not say how long its window is, so the window is learned from the remaining
 * counts (see WindowEstimate); until then it is assumed to be 60 s, an overestimate for most APIs,
 * which is the safe side. While it is only assumed, the upper half of the budget goes at once (a
 * short run is never slowed down) and the lower half is spread log-evenly up to the assumed end of
 * the window. Once learned, every request is paced evenly at 95% of limit ÷ window: the budget then
 * lasts the whole window, resets are seen as they happen, and a small reserve is kept. When the
 * budget is spent, one probe goes out when the window should have reset; a 429 pauses everyone for `Retry-After`.
 * Before the first answer only one request is in flight; an API that sends no rate-limit headers
 * is not paced at all.
 */
export class Pacer {
  private readonly waiters: Waiter[] = [];
  private readonly window = new WindowEstimate();
  private sent = 0;
  private inFlight = 0;
  private answered = false;
  private limit: number | undefined;
  /** The newest-sent answered request with rate-limit headers. */
  private latest: Sample | undefined;
  /** Budget left = baseline - sent. */
  private baseline: number | undefined;
  /** Slot of the last paced send; slots stay on their grid when timers fire a little late. */
  private lastSlot = Number.NEGATIVE_INFINITY;
  private pausedUntil = 0;
  private probeAt: number | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly emit: EmitEvent = () => {}, private readonly now: () => number = () => performance.now()) {}

  acquire(signal?: AbortSignal): Promise<PacerTicket> {
    signal?.throwIfAborted();
    return new Promise<PacerTicket>((resolve, reject) => {
      const waiter: Waiter = { resolve, reject };
      const onAbort = (): void => {
        const index = this.waiters.indexOf(waiter);
        if (index >= 0) this.waiters.splice(index, 1);
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      waiter.resolve = (ticket) => {
        signal?.removeEventListener('abort', onAbort);
        resolve(ticket);
      };
      this.waiters.push(waiter);
      this.pump();
    });
  }

  /** `answer` is undefined when no HTTP answer came back (reset, timeout). */
  settle(ticket: PacerTicket, answer: RateAnswer | undefined): void {
    this.inFlight -= 1;
    if (answer !== undefined) this.observe(ticket, answer);
    this.pump();
  }

  /** Rejects requests still waiting; used by `ApiClient.close()`. */
  close(): void {
    clearTimeout(this.timer);
    for (const waiter of this.waiters.splice(0)) waiter.reject(new PostsyncError('The API client was closed while a request waited for the rate limiter.'));
  }

  private observe(ticket: PacerTicket, answer: RateAnswer): void {
    const receivedAt = this.now();
    this.answered = true;
    if (answer.status === 429) {
      this.pausedUntil = Math.max(this.pausedUntil, receivedAt + (answer.retryAfterSeconds ?? 1) * 1000);
      // After Retry-After the window has surely been reset: the next request may go.
      this.probeAt = this.pausedUntil;
      if (this.limit !== undefined) this.emit({ type: 'throttle', waitMs: this.pausedUntil - receivedAt, limit: this.limit, reason: 'retry-after' });
    }
    if (answer.limit === undefined || answer.remaining === undefined) return;
    this.limit = answer.limit;
    const sample: Sample = {
      seq: ticket.seq,
      sentAt: ticket.sentAt,
      receivedAt,
      remaining: answer.remaining,
      rejected: answer.status === 429,
      baseline: answer.remaining + ticket.seq - ticket.inFlightAtSend,
    };
    // Each answer bounds the budget from below; one sent with nothing else in flight is exact (and
    // may lower it: other clients of the project spend the same budget).
    // A 429 says the budget is spent now.
    if (sample.rejected) this.baseline = this.sent;
    else if (this.baseline === undefined || ticket.inFlightAtSend === 0) this.baseline = sample.baseline;
    else this.baseline = Math.max(this.baseline, sample.baseline);
    const previous = this.latest;
    if (previous !== undefined && sample.seq < previous.seq) return;
    this.latest = sample;
    const reset = this.window.observe(previous, sample);
    if (reset) this.probeAt = undefined;
    else if (ticket.probe && !sample.rejected) {
      // The window should have been reset by now and was not: it is longer than estimated.
      this.window.widen();
      this.probeAt = Math.max(this.window.nextResetAt(), receivedAt + this.window.ms / 8);
    }
  }

  private pump(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    while (this.waiters.length > 0) {
      const now = this.now();
      const next = this.nextRelease(now);
      if (next === undefined) return;
      if (next.at > now) {
        this.timer = setTimeout(() => this.pump(), Math.ceil(next.at - now));
        return;
      }
      this.release(now, next);
    }
  }

  /** When the next waiter may go; undefined: not before an answer arrives. */
  private nextRelease(now: number): { at: number; probe: boolean } | undefined {
    if (now < this.pausedUntil) return { at: this.pausedUntil, probe: false };
    if (this.limit === undefined || this.baseline === undefined) {
      return !this.answered && this.inFlight > 0 ? undefined : { at: now, probe: false };
    }
    const available = this.baseline - this.sent;
    // Once the window is learned, a small reserve is kept for probes at predicted resets.
    const reserve = this.window.learned && this.limit > 1 ? Math.max(1, Math.floor(this.limit * 0.04)) : 0;
    if (available > reserve) {
      if (this.window.learned) return { at: this.lastSlot + this.window.ms / (this.limit * SAFETY), probe: false };
      // While the window is unknown, the upper half of the budget goes at once, the rest (at least
      // a few samples) spread log-evenly from the window start to its assumed end: a reset is then
      // noticed soon whatever the window is, and the budget lasts until then.
      const spread = Math.max(this.limit / 2, Math.min(this.limit - 1, MIN_SPREAD_SAMPLES));
      if (available > spread) return { at: now, probe: false };
      const spent = (spread - available) / Math.max(1, spread - 1);
      const at = this.window.currentStartAt() + FIRST_SAMPLE_MS * (this.window.ms / FIRST_SAMPLE_MS) ** Math.min(1, spent);
      return { at: Math.max(at, this.lastSlot), probe: false };
    }
    // Answers still in flight may show the reset; a probe is sent only when none are.
    if (this.inFlight > 0) return undefined;
    if (this.probeAt === undefined) {
      this.probeAt = this.window.nextResetAt();
      if (this.probeAt - now >= THROTTLE_EVENT_MS) this.emit({ type: 'throttle', waitMs: this.probeAt - now, limit: this.limit, reason: 'budget' });
    }
    return { at: this.probeAt, probe: true };
  }

  private release(now: number, { at, probe }: { at: number; probe: boolean }): void {
    const waiter = this.waiters.shift();
    if (waiter === undefined) return;
    this.sent += 1;
    const ticket: PacerTicket = { seq: this.sent, sentAt: now, inFlightAtSend: this.inFlight, probe };
    this.inFlight += 1;
    const spacing = this.limit === undefined ? 0 : this.window.ms / (this.limit * SAFETY);
    this.lastSlot = now - at < spacing ? at : now;
    if (probe) this.probeAt = undefined;
    waiter.resolve(ticket);
  }
}
