/**
 * `watch --calendar` serves the page at an address that holds a token of its process (`?t=`), and
 * answers no request without it: the page passes it on to every address of its own server it
 * loads (its events, its thumbnails). Another site's address (a poster's) never gets it, and a
 * written page (no token in its address) loads its addresses as they are.
 */
export function withPageToken(url: string): string {
  const token = new URLSearchParams(location.search).get('t');
  if (token === null) return url;
  const address = new URL(url, location.href);
  // A picture picked on this machine (blob:) is no address of the server.
  if (address.origin !== location.origin || address.protocol === 'blob:') return url;
  address.searchParams.set('t', token);
  return address.href;
}
