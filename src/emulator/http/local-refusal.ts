import { ErrorCodes } from '../../api/error-codes.js';
import type { Refusal } from '../../local-server/guard.js';
import { ApiError } from '../protocol/envelope.js';

const CODES: Record<Refusal['reason'], string> = {
  'malformed-url': ErrorCodes.malformedUrl,
  host: ErrorCodes.misdirectedHost,
  'cross-site': ErrorCodes.crossSiteRequest,
  token: ErrorCodes.controlTokenRequired,
  body: ErrorCodes.unsupportedMediaType,
};

/** A refusal of the local-server guard as the emulator answers every error: its Error envelope. */
export function refusalError(refusal: Refusal): ApiError {
  return new ApiError(refusal.status, CODES[refusal.reason], refusal.message);
}
