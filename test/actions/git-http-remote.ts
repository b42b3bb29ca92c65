import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { basename, dirname } from 'node:path';

/**
 * A bare repository served over HTTP by `git http-backend`, as GitHub serves one: anyone may
 * fetch, a push needs the header `actions/checkout` would have stored (`AUTHORIZATION: basic
 * base64(x-access-token:TOKEN)`). It shows that a job which keeps no token in .git/config still
 * pushes, with the token given to that one command.
 */
export interface GitHttpRemote {
  /** The URL to clone and push, ending in the bare repository's folder name. */
  url: string;
  /** Pushes refused for a missing or wrong token. */
  refusedPushes: number;
  close(): Promise<void>;
}

export async function startGitHttpRemote(options: { bare: string; token: string }): Promise<GitHttpRemote> {
  const expected = `basic ${Buffer.from(`x-access-token:${options.token}`).toString('base64')}`;
  const remote = { refusedPushes: 0 };
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const push = url.searchParams.get('service') === 'git-receive-pack' || url.pathname.endsWith('/git-receive-pack');
    if (push && request.headers.authorization?.toLowerCase() !== expected.toLowerCase()) {
      remote.refusedPushes++;
      response.writeHead(401, { 'WWW-Authenticate': 'Basic realm="git"' }).end('push needs the token\n');
      return;
    }
    backend(request, response, { root: dirname(options.bare), url, push });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(remote, {
    url: `http://127.0.0.1:${port}/${basename(options.bare)}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

/** One request through `git http-backend` (CGI): its headers, then its body. */
function backend(request: IncomingMessage, response: ServerResponse, context: { root: string; url: URL; push: boolean }): void {
  const child = spawn('git', ['http-backend'], {
    env: {
      PATH: process.env.PATH,
      GIT_PROJECT_ROOT: context.root,
      GIT_HTTP_EXPORT_ALL: '1',
      REQUEST_METHOD: request.method ?? 'GET',
      PATH_INFO: context.url.pathname,
      QUERY_STRING: context.url.search.slice(1),
      CONTENT_TYPE: request.headers['content-type'] ?? '',
      ...(request.headers['content-encoding'] ? { HTTP_CONTENT_ENCODING: request.headers['content-encoding'] } : {}),
      // http-backend lets an authenticated user push.
      ...(context.push ? { REMOTE_USER: 'x-access-token' } : {}),
    },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  request.pipe(child.stdin);
  let head = Buffer.alloc(0);
  let sent = false;
  child.stdout.on('data', (chunk: Buffer) => {
    if (sent) return void response.write(chunk);
    head = Buffer.concat([head, chunk]);
    const end = head.indexOf('\r\n\r\n');
    if (end < 0) return;
    const headers: Record<string, string> = {};
    let status = 200;
    for (const line of head.subarray(0, end).toString('latin1').split('\r\n')) {
      const [name, ...rest] = line.split(':');
      if (name!.toLowerCase() === 'status') status = Number.parseInt(rest.join(':').trim(), 10);
      else headers[name!] = rest.join(':').trim();
    }
    response.writeHead(status, headers);
    response.write(head.subarray(end + 4));
    sent = true;
  });
  child.on('close', () => response.end());
}
