/**
 * `error.code` values the emulator sends (the spec names only `api_key_paused` and
 * `idempotency_in_progress`; the rest is postsync's documented choice, see schemas/openapi.yaml).
 * The client treats any other code as an opaque string.
 */
export const ErrorCodes = {
  invalidJson: 'invalid_json', // 400: body is not JSON
  validationFailed: 'validation_failed', // 400: every violated rule listed in error.message (array)
  unauthorized: 'unauthorized', // 401: missing or unknown key
  apiKeyExpired: 'api_key_expired', // 401
  apiKeyPaused: 'api_key_paused', // 403
  missingPermission: 'missing_permission', // 403: message names the permission
  notFound: 'not_found', // 404: unknown path, or a resource of another project
  methodNotAllowed: 'method_not_allowed', // 405 + Allow: a known path, another method
  postNotEditable: 'post_not_editable', // 409: post is no longer draft/scheduled
  idempotencyInProgress: 'idempotency_in_progress', // 409 + Retry-After
  mediaNotReady: 'media_not_ready', // 409 + Retry-After: not in the spec; a service still processing a file a write names
  idempotencyKeyReused: 'idempotency_key_reused', // 422: same key, different payload
  uploadIncomplete: 'upload_incomplete', // 409: complete called before the bytes are stored
  mediaInvalid: 'media_invalid', // 422: stored bytes do not match size or declared type
  payloadTooLarge: 'payload_too_large', // 413 (an envelope is not guaranteed by the spec)
  unsupportedMediaType: 'unsupported_media_type', // 415: a request body that is not declared application/json
  rateLimited: 'rate_limited', // 429 + Retry-After
  internalError: 'internal_error', // 500
  serviceUnavailable: 'service_unavailable', // 503
  // Added by the emulator (issue 2), outside the spec's API surface:
  uploadClosed: 'upload_closed', // 409: multipart operation on an upload already completed or aborted
  signatureInvalid: 'signature_invalid', // 403 (storage): presigned URL signature missing or not for this object/method
  urlExpired: 'url_expired', // 403 (storage): presigned URL past its expiry (emulator time)
  loopbackOnly: 'loopback_only', // 403: /_emulator control endpoints refuse non-loopback peers
  malformedUrl: 'malformed_url', // 400: a request address that does not parse (a bad percent-escape)
  misdirectedHost: 'misdirected_host', // 421: on a loopback bind, a Host that is not a loopback name (DNS rebinding)
  crossSiteRequest: 'cross_site_request', // 403: a control request from a web page of another origin
  controlTokenRequired: 'control_token_required', // 403: a state-changing control request without the process's control token
} as const;

export type ErrorCode = (typeof ErrorCodes)[keyof typeof ErrorCodes];
