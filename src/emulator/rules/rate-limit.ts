import { ErrorCodes } from '../../api/error-codes.js';
import { ApiError } from '../protocol/envelope.js';
import type { RateLimit } from '../fixture/fixture.js';

interface Window {
  startMs: number;
  count: number;
}

/**
 * Fixed-window counter per project, shared by all keys of the project, on the emulator clock.
 * `take` counts one request and returns the headers to send; past the limit it throws 429.
 */
export class RateLimiter {
  private readonly windows = new Map<string, Window>();

  constructor(private readonly limits: ReadonlyMap<string, RateLimit>) {}

  take(projectId: string, nowMs: number): Record<string, string> {
    const limit = this.limits.get(projectId);
    if (!limit) return {};
    const windowMs = limit.windowSeconds * 1000;
    const startMs = Math.floor(nowMs / windowMs) * windowMs;
    let window = this.windows.get(projectId);
    if (!window || window.startMs !== startMs) {
      window = { startMs, count: 0 };
      this.windows.set(projectId, window);
    }
    const headers = { 'X-RateLimit-Limit': String(limit.limit) };
    if (window.count >= limit.limit) {
      const retryAfter = Math.max(1, Math.ceil((startMs + windowMs - nowMs) / 1000));
      throw new ApiError(429, ErrorCodes.rateLimited, `project rate limit of ${limit.limit} requests per ${limit.windowSeconds} s exceeded`, {
        ...headers,
        'X-RateLimit-Remaining': '0',
        'Retry-After': String(retryAfter),
      });
    }
    window.count += 1;
    return { ...headers, 'X-RateLimit-Remaining': String(limit.limit - window.count) };
  }

  reset(): void {
    this.windows.clear();
  }
}
