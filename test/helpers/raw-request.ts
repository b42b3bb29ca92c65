import { request } from 'node:http';

/** What a raw request answered: status, headers and the body as text. */
export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * One HTTP request as a browser or an attacker could send it, which fetch does not allow: any
 * Host header, any path as written (`/media/%` stays malformed), any Origin. `origin` is where it
 * connects (e.g. `http://127.0.0.1:4010`).
 */
export function rawRequest(origin: string, path: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<RawAnswer> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: hostname.replace(/^\[|\]$/g, ''), port, path, method: options.method ?? 'GET', headers: options.headers, setHost: options.headers?.host === undefined }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
      response.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end(options.body);
  });
}
