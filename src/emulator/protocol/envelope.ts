import type { ErrorEnvelope } from '../../api/types.js';
import { ErrorCodes, type ErrorCode } from '../../api/error-codes.js';

/**
 * A failure a handler wants to answer with the Error envelope. Thrown by handlers and caught once
 * by the server, which adds the request id and the common headers.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode | string,
    readonly detail: string | string[],
    readonly headers: Record<string, string> = {},
  ) {
    super(Array.isArray(detail) ? detail.join('; ') : detail);
    this.name = 'ApiError';
  }
}

export const notFound = (what: string): ApiError => new ApiError(404, ErrorCodes.notFound, `${what} not found`);

/** 400 listing every violated rule, as the spec asks ("all violations"). */
export const validationFailed = (violations: string[]): ApiError =>
  new ApiError(400, ErrorCodes.validationFailed, violations);

export function errorBody(error: ApiError, requestId: string): ErrorEnvelope {
  return { error: { code: error.code, message: error.detail }, meta: { requestId } };
}

/** A handler's successful answer; the server wraps `data` in the Success envelope. */
export interface Reply {
  status: number;
  data: unknown;
  headers?: Record<string, string>;
}

export const ok = (data: unknown, status = 200): Reply => ({ status, data });
