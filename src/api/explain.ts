import { ErrorCodes } from './error-codes.js';
import { ALL_PERMISSIONS, type Permission } from './types.js';
import type { ApiErrorDetails, NetworkErrorDetails } from './errors.js';
import type { BoundPassed } from './transport.js';

/** Sentences for people: what went wrong in the user's terms, and what to do about it. */
export interface Explained {
  message: string;
  hint: string;
}

const PERMISSION_PURPOSE: Record<Permission, string> = {
  'accounts-read': 'reading accounts and their capabilities',
  'posts-read': 'reading posts',
  'posts-write': 'creating and editing posts',
  'posts-publish': 'scheduling posts and editing scheduled posts',
  'posts-delete': 'deleting posts',
  'media-write': 'uploading media',
};

export function explainApiError(details: ApiErrorDetails): Explained {
  const { message, hint } = explainByCode(details);
  const ids = [`${details.status} ${details.code}`];
  if (details.requestId) ids.push(`request id ${details.requestId}`);
  return { message: `${capitalize(details.operation)} failed: ${message} (${ids.join(', ')})`, hint };
}

function explainByCode(d: ApiErrorDetails): Explained {
  const said = d.messages.join('; ');
  switch (d.code) {
    case ErrorCodes.apiKeyPaused:
      return {
        message: 'the API key is paused by a project admin; ask them to resume it or use another key',
        hint: 'Ask a project admin to resume the key, or set POSTSYNC_API_KEY to another key.',
      };
    case ErrorCodes.missingPermission:
      return explainMissingPermission(d);
    case ErrorCodes.apiKeyExpired:
      return { message: 'the API key has expired; create a new key and set it in POSTSYNC_API_KEY', hint: 'Ask a project admin for a new key and set POSTSYNC_API_KEY.' };
    case ErrorCodes.postNotEditable:
      return { message: `the post can no longer be changed (${said}); only draft and scheduled posts can be edited or deleted`, hint: 'Run `postsync plan` again: published posts are shown as blocked.' };
    case ErrorCodes.idempotencyInProgress:
      return { message: 'the API is still processing the same create request; run again in a few seconds', hint: 'Running again is safe: the Idempotency-Key returns the same post.' };
    case ErrorCodes.idempotencyKeyReused:
      return { message: `the Idempotency-Key was already used for a different payload (${said})`, hint: 'A pending create in .postsync/state.json was changed by hand; restore it or remove the pending record.' };
    case ErrorCodes.uploadIncomplete:
      return { message: `the API has not received all the media bytes yet (${said})`, hint: 'Run again: the upload resumes with the missing parts.' };
    case ErrorCodes.mediaInvalid:
      return { message: `the uploaded media was rejected (${said})`, hint: 'Check the file type and that the file did not change during the upload.' };
  }
  switch (d.status) {
    case 400:
      return { message: `the API rejected the request: ${said}`, hint: 'Fix the listed problems in the post file and run again.' };
    case 401:
      return { message: `the API did not accept the API key (${said}); check POSTSYNC_API_KEY`, hint: 'Set POSTSYNC_API_KEY to a valid key of this project, for this API URL.' };
    case 403:
      return { message: `the API refused the request (${said})`, hint: 'Check the key and its permissions with `postsync whoami`.' };
    case 404:
      return { message: `not found (${said}); it may have been deleted or belong to another project, or the API URL is wrong`, hint: 'Check api.url / POSTSYNC_API_URL (it ends in /public/v1) and run `postsync plan` again.' };
    case 413:
      return { message: 'the request body is over the API limit of 100 KB', hint: 'Shorten the post content (and per-account texts); a refused create leaves nothing pending, so the next apply sends the file as it is then.' };
    case 429:
      return {
        message: `the project is rate limited by the API${d.retryAfterSeconds === undefined ? '' : ` for ${d.retryAfterSeconds} s more`} (the limit is shared by all keys of the project)`,
        hint: 'Wait and run again, or run fewer postsync processes at the same time.',
      };
  }
  if (d.status >= 500) {
    const attempts = `after ${d.attempts} attempt${d.attempts === 1 ? '' : 's'}`;
    // A bare answer (a gateway's HTML page) is no word of the API's: named by its status, never echoed.
    if (d.code === `http_${d.status}`) {
      return { message: `${d.method} ${d.path} answered ${d.status} with no API answer (a gateway in front of the service: it is unavailable or timed out), ${attempts}`, hint: 'Try again later; running again is safe.' };
    }
    return { message: `${d.method} ${d.path} failed ${attempts} (${said})`, hint: 'Try again later; running again is safe.' };
  }
  return { message: said || `HTTP ${d.status}`, hint: 'Check the request id with the API provider if this persists.' };
}

function explainMissingPermission(d: ApiErrorDetails): Explained {
  const permission = namedPermission(d.messages.join(' '));
  if (!permission) {
    return {
      message: `the API key lacks a permission needed for ${d.operation} (${d.messages.join('; ')}); ask a project admin to grant it or use another key`,
      hint: 'Check the key permissions with `postsync whoami`.',
    };
  }
  return {
    message: `${d.operation} needs the ${permission} permission (used for ${PERMISSION_PURPOSE[permission]}), and the API key lacks it; ask a project admin to grant ${permission} or use another key`,
    hint: `Ask a project admin to grant ${permission} to the key, or set POSTSYNC_API_KEY to a key that has it.`,
  };
}

/** The permission the server names first ("lacks the `posts-publish` permission (... posts-write)"). */
function namedPermission(text: string): Permission | undefined {
  let first: { name: Permission; at: number } | undefined;
  for (const name of ALL_PERMISSIONS) {
    const at = text.indexOf(name);
    if (at >= 0 && (first === undefined || at < first.at)) first = { name, at };
  }
  return first?.name;
}

export function explainNetworkError(d: NetworkErrorDetails): Explained {
  const tries = `${d.attempts} attempt${d.attempts === 1 ? '' : 's'}`;
  return {
    message: `${capitalize(d.operation)} failed: no answer from ${d.method} ${d.path} after ${tries} (${d.code}: ${d.detail})`,
    hint: d.code === 'ENOTFOUND'
      ? 'Check the host name in api.url / POSTSYNC_API_URL.'
      : 'Check the network and api.url / POSTSYNC_API_URL, then run again; running again is safe.',
  };
}

/** A call whose answer went past a bound (`SendBounds`): what was cut, and what to check. */
export function explainBoundPassed(d: { operation: string; method: string; path: string; bound: BoundPassed['bound'] }): Explained {
  const call = `${d.method} ${d.path}`;
  if (d.bound.kind === 'body') {
    return {
      message: `${capitalize(d.operation)} failed: the answer of ${call} is larger than ${d.bound.maxBytes / MiB} MiB, the most postsync reads of one answer; it stopped reading`,
      hint: 'Check that api.url / POSTSYNC_API_URL points at the Public Posting API: its answers are far smaller.',
    };
  }
  return {
    message: `${capitalize(d.operation)} failed: ${call} did not complete within ${d.bound.ms / 1000} s (the answer's headers and body); postsync stopped waiting`,
    hint: 'Check the network and api.url / POSTSYNC_API_URL, then run again. POSTSYNC_API_TIMEOUT_MS sets this deadline in milliseconds (default 120000).',
  };
}

const MiB = 1024 * 1024;

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
