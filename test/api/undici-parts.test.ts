import { createServer } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { undici } from '../../src/api/undici-parts.js';

describe('the undici parts the client loads', () => {
  it('are the package’s own agent, from its own module (a new undici layout shows up here)', async () => {
    expect(undici.Agent).toBe((await import('undici')).Agent);
  });

  it('send a request with a query, headers and a body through an agent, and read the answer', async () => {
    const server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify({ method: request.method, url: request.url, key: request.headers['x-key'], body }));
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    const agent = new undici.Agent();
    try {
      const response = await undici.request(agent, { origin: `http://127.0.0.1:${port}`, path: '/posts?limit=2', method: 'POST', headers: { 'x-key': 'k' }, body: 'hello' });
      expect(response.statusCode).toBe(200);
      expect(await response.body.json()).toEqual({ method: 'POST', url: '/posts?limit=2', key: 'k', body: 'hello' });
    } finally {
      await agent.close();
      server.close();
    }
  });
});
