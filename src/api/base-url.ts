import { InputError } from '../errors.js';

/**
 * Parses and checks an API or storage URL. The bearer key must never travel in clear text over a
 * network, so plain `http://` is accepted only for loopback hosts (the embedded emulator).
 */
export function checkedUrl(raw: string, what: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new InputError(`The ${what} "${raw}" is not a valid URL.`, {
      hint: 'Set api.url in postsync.yaml or POSTSYNC_API_URL to an https:// URL ending in /public/v1.',
    });
  }
  if (url.protocol === 'https:') return url;
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return url;
  if (url.protocol === 'http:') {
    throw new InputError(`Refusing plain http:// for the ${what} ${url.origin}: the API key would travel unencrypted.`, {
      hint: 'Use an https:// URL; plain http:// is allowed only for loopback hosts (127.0.0.1, ::1, localhost).',
    });
  }
  throw new InputError(`The ${what} ${url.origin} uses ${url.protocol}; only https:// (or http:// on loopback) is supported.`, {
    hint: 'Set api.url in postsync.yaml or POSTSYNC_API_URL to an https:// URL ending in /public/v1.',
  });
}

/** 127.0.0.0/8, ::1 (also IPv4-mapped loopback) and localhost. `hostname` as URL gives it (IPv6 in brackets). */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (host === '::1') return true;
  // URL normalizes ::ffff:127.0.0.1 to ::ffff:7f00:1 (and the like).
  const mapped = /^::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}$/.exec(host);
  if (mapped) return true;
  const ipv4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  return ipv4 !== null && Number(ipv4[1]) === 127 && ipv4.slice(2).every((part) => Number(part) <= 255);
}

/** Joins the base URL (which includes /public/v1) with an endpoint path and its query. */
export function endpointUrl(base: URL, path: string, query?: Record<string, string | number | undefined>): URL {
  const url = new URL(base.href.replace(/\/+$/, '') + path);
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined) url.searchParams.set(name, String(value));
  }
  return url;
}
