/** One answered request, as the pacer saw it (times from a monotonic clock, in ms). */
export interface Sample {
  /** Send order of the request. */
  seq: number;
  sentAt: number;
  receivedAt: number;
  remaining: number;
  /** A 429: the request was not counted by the server. */
  rejected: boolean;
  /** `remaining` plus requests sent up to it, minus those in flight then: budget = baseline - sent. */
  baseline: number;
}

/** Until a window is learned, it is assumed to be this long (an overestimate is the safe side). */
export const ASSUMED_WINDOW_MS = 60_000;
const MIN_WINDOW_MS = 100;
const MAX_WINDOW_MS = 24 * 3600_000;

/**
 * Learns the length of the server's rate-limit window from `X-RateLimit-Remaining` alone, since
 * the server does not send it.
 *
 * A request sent after another one's answer arrived was processed after it, so within one window
 * its remaining count must be lower; if it is not, the window was reset in between, somewhere in
 * (earlier.sentAt, later.receivedAt). Two resets are known to be distinct when every pair in
 * between was ordered, or when an ordered pair in between showed a decrease (answers of concurrent
 * requests can arrive out of order); two distinct resets bound the window from above by the time
 * from the start of the first interval to the end of the second. The estimate is the smallest such bound: it never
 * underestimates a fixed window, and it tightens as requests get denser. A sliding window or token
 * bucket refills continuously instead; the estimate then shrinks, the pacer runs out of budget
 * sooner and probes, and `widen()` after a probe that found no refill corrects it.
 */
export class WindowEstimate {
  ms = ASSUMED_WINDOW_MS;
  /** True once `ms` is bounded by observed resets rather than assumed. */
  learned = false;
  private firstSeenAt: number | undefined;
  private lastReset: { from: number; to: number } | undefined;
  /** Every sample since the last reset was ordered after the one before it. */
  private chainIntact = false;
  /** An ordered pair since the last reset showed a decrease: that pair lies within one window. */
  private decreasedSinceReset = false;

  /** Feeds the newest-sent answer and the one before it; true when a reset happened between them. */
  observe(previous: Sample | undefined, sample: Sample): boolean {
    if (previous === undefined) {
      this.firstSeenAt = sample.receivedAt;
      return false;
    }
    if (sample.rejected || sample.sentAt < previous.receivedAt) {
      this.chainIntact = false;
      return false;
    }
    if (sample.remaining < previous.remaining) {
      this.decreasedSinceReset = true;
      return false;
    }
    if (this.lastReset !== undefined && (this.chainIntact || this.decreasedSinceReset)) {
      const bound = sample.receivedAt - this.lastReset.from;
      this.ms = Math.max(MIN_WINDOW_MS, Math.min(this.ms, bound));
      this.learned = true;
    }
    this.lastReset = { from: previous.sentAt, to: sample.receivedAt };
    this.chainIntact = true;
    this.decreasedSinceReset = false;
    return true;
  }

  /** A probe found no reset where one was due: the window is longer than estimated. */
  widen(): void {
    this.ms = Math.min(this.ms * 2, MAX_WINDOW_MS);
  }

  /** When the current window began, as far as known: the last reset seen, or the first answer. */
  currentStartAt(): number {
    return this.lastReset?.to ?? this.firstSeenAt ?? 0;
  }

  /** The latest time by which the current window ends, if the estimate holds. */
  nextResetAt(): number {
    return this.currentStartAt() + this.ms;
  }
}
