import type { Diagnostic } from '../diagnostics.js';

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Whether this run is under CI: `CI` set to anything but empty, `false` or `0`, or GitHub
 * Actions (`GITHUB_ACTIONS=true`). Under CI the configuration may come from a pull request, so
 * what the environment says (its secrets) is trusted more than what the files say.
 */
export function isCiEnvironment(env: Env): boolean {
  const ci = env.CI;
  return (ci !== undefined && ci !== '' && ci !== 'false' && ci !== '0') || env.GITHUB_ACTIONS === 'true';
}

/**
 * POSTSYNC_API_URL_ALLOW: comma-separated origins (`https://api.example.com`) that, under CI,
 * may receive the API key though their URL comes from postsync.yaml. A path after an origin is
 * ignored; anything that is not an http(s) origin is an error.
 */
export function readAllowedOrigins(env: Env, diagnostics: Diagnostic[]): readonly string[] {
  const entries = (env.POSTSYNC_API_URL_ALLOW ?? '').split(',').map((entry) => entry.trim()).filter((entry) => entry !== '');
  const origins: string[] = [];
  for (const entry of entries) {
    const origin = originOf(entry);
    if (origin !== undefined) origins.push(origin);
    else {
      diagnostics.push({
        severity: 'error',
        code: 'invalid-environment',
        message: `POSTSYNC_API_URL_ALLOW: \`${entry}\` is not an http:// or https:// origin`,
        expected: 'comma-separated origins such as https://api.example.com',
      });
    }
  }
  return Object.freeze(origins);
}

function originOf(entry: string): string | undefined {
  try {
    const url = new URL(entry);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.username === '' && url.password === '' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * POSTSYNC_API_TIMEOUT_MS: the time one API call may take, from sending to the last byte of its
 * answer; null when unset (the client's default).
 */
export function readDeadlineMs(env: Env, diagnostics: Diagnostic[]): number | null {
  const raw = env.POSTSYNC_API_TIMEOUT_MS;
  if (raw === undefined || raw === '') return null;
  const value = /^\s*\d+\s*$/.test(raw) ? Number(raw) : Number.NaN;
  if (Number.isSafeInteger(value) && value > 0) return value;
  diagnostics.push({
    severity: 'error',
    code: 'invalid-environment',
    message: 'POSTSYNC_API_TIMEOUT_MS is not a whole number of milliseconds above 0',
    expected: 'milliseconds, such as 120000',
    found: `\`${raw}\``,
  });
  return null;
}
