export * from './types.js';
export * from './error-codes.js';
export { ApiClient, type ClientOptions } from './client.js';
export { ApiError, NetworkError, type ApiErrorDetails, type NetworkErrorDetails } from './errors.js';
export type { ClientEvent } from './events.js';
export type { MultipartOutcome, MultipartUpload, MultipartUploadOptions, SingleUploadFile, StoredPart } from './upload.js';
export { DEFAULT_RETRY_POLICY, type RetryMode, type RetryPolicy } from './retry.js';
export { isLoopbackHost } from './base-url.js';
export { ResponseShapeError } from './read-fields.js';
