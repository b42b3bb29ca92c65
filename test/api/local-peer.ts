import { afterEach } from 'vitest';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request as the peer received it. */
export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export type Responder = (request: ReceivedRequest, res: ServerResponse) => void;

export interface LocalPeer {
  baseUrl: string;
  origin: string;
  received: ReceivedRequest[];
  close(): Promise<void>;
}

/**
 * A tiny real HTTP server on port 0 for behaviours the emulator never shows on demand (a bare
 * 413, a sequence of statuses, an empty page with a cursor). `respond` gets the request number
 * (0-based) so a test can script a sequence.
 */
export async function startLocalPeer(respond: (request: ReceivedRequest, index: number, res: ServerResponse) => void): Promise<LocalPeer> {
  const received: ReceivedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      received.push(request);
      respond(request, received.length - 1, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    baseUrl: `${origin}/public/v1`,
    received,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Sends a JSON body with the headers every API answer carries. */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': `req-${status}`, ...headers });
  res.end(JSON.stringify(body));
}

export function sendError(res: ServerResponse, status: number, code: string, message: string | string[], headers: Record<string, string> = {}): void {
  sendJson(res, status, { error: { code, message }, meta: { requestId: `req-${status}` } }, headers);
}

/** Drops the connection without an answer (the client sees a socket error). */
export function dropConnection(res: ServerResponse): void {
  res.socket?.destroy();
}

/**
 * Closes everything a test registered (clients, peers) after each test, newest first, so a client
 * closes before the peer it talks to. Returns `track`, which registers and passes the item through.
 */
export function useCleanup(): <T extends { close(): Promise<unknown> }>(item: T) => T {
  const open: { close(): Promise<unknown> }[] = [];
  afterEach(async () => {
    for (const item of open.splice(0).reverse()) await item.close();
  });
  return (item) => {
    open.push(item);
    return item;
  };
}
