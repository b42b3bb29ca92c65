import { InputError } from '../errors.js';
import type { ApiConfig } from './types.js';

/**
 * Why the API key must not go to `api.url`, or undefined when it may. Under CI the key comes from
 * a secret while postsync.yaml may come from the pull request being checked: a URL written there
 * would otherwise receive the key. So under CI a key is sent only to a URL from the environment
 * or the flags, or to a file's URL whose origin POSTSYNC_API_URL_ALLOW lists. Outside CI the
 * person running postsync chose both, and nothing is refused.
 */
export function keyDestinationRefusal(api: ApiConfig, options: { ci: boolean }): InputError | undefined {
  if (!options.ci || api.url === null || api.key === null || api.urlFrom !== 'file') return undefined;
  const { origin } = new URL(api.url);
  if (api.allowedOrigins.includes(origin)) return undefined;
  return new InputError(
    `Refused to send POSTSYNC_API_KEY to ${origin}, the api.url of postsync.yaml: under CI the key only goes to a URL from the environment (POSTSYNC_API_URL is unset or empty), since postsync.yaml may come from the pull request being checked.`,
    {
      hint: `Set POSTSYNC_API_URL (a secret, like the key) to the API's URL, or, if postsync.yaml's api.url is trusted, allow its origin with POSTSYNC_API_URL_ALLOW=${origin}.`,
    },
  );
}
