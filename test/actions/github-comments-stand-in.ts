import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';

/** One issue comment as the stand-in keeps it. */
export interface StoredComment {
  id: number;
  issue: number;
  body: string;
  user: { login: string };
}

/** A request the stand-in answered: method, path (query included), status. */
export interface LoggedRequest {
  method: string;
  path: string;
  status: number;
}

/**
 * The few GitHub REST endpoints `postsync calendar` calls for its pull-request comment, on port 0:
 * list an issue's comments (paged: per_page, page), create one, edit one. Every call needs
 * `Authorization: Bearer <token>`; a token of `readOnlyToken` may read but not write (a fork's).
 */
export class GitHubStandIn {
  readonly comments: StoredComment[] = [];
  readonly requests: LoggedRequest[] = [];
  readonly #server = createServer((request, response) => void this.#handle(request, response));
  #nextId = 1000;

  /** `userLogin`: the token is a person's (`GET /user` names them, and their comments carry it); else it is a workflow's `GITHUB_TOKEN`, which may not read `/user`. */
  constructor(readonly options: { token: string; readOnlyToken?: string; repository: string; userLogin?: string }) {}

  get url(): string {
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  /** Someone else's comment, for the stand-in to hold before postsync's. */
  addComment(issue: number, body: string, login = 'reviewer'): void {
    this.comments.push({ id: this.#nextId++, issue, body, user: { login } });
  }

  async #handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://stand-in');
    const send = (status: number, body: unknown) => {
      this.requests.push({ method: request.method ?? '', path: `${url.pathname}${url.search}`, status });
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    if (token !== this.options.token && token !== this.options.readOnlyToken) return send(401, { message: 'Bad credentials' });
    const writes = request.method !== 'GET';
    if (writes && token === this.options.readOnlyToken) return send(403, { message: 'Resource not accessible by integration' });
    if (url.pathname === '/user' && request.method === 'GET') {
      return this.options.userLogin === undefined ? send(403, { message: 'Resource not accessible by integration' }) : send(200, { login: this.options.userLogin });
    }
    const prefix = `/repos/${this.options.repository}/issues/`;
    if (!url.pathname.startsWith(prefix)) return send(404, { message: 'Not Found' });
    const rest = url.pathname.slice(prefix.length);
    const list = /^(\d+)\/comments$/.exec(rest);
    const one = /^comments\/(\d+)$/.exec(rest);
    const body = chunks.length === 0 ? {} : (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { body?: string });
    if (list && request.method === 'GET') {
      const perPage = Number(url.searchParams.get('per_page') ?? 30);
      const page = Number(url.searchParams.get('page') ?? 1);
      return send(200, this.comments.filter((comment) => comment.issue === Number(list[1])).slice((page - 1) * perPage, page * perPage));
    }
    if (list && request.method === 'POST') {
      if (typeof body.body !== 'string') return send(422, { message: 'body is missing' });
      const comment = { id: this.#nextId++, issue: Number(list[1]), body: body.body, user: { login: this.options.userLogin ?? 'github-actions[bot]' } };
      this.comments.push(comment);
      return send(201, comment);
    }
    if (one && request.method === 'PATCH') {
      const comment = this.comments.find((candidate) => candidate.id === Number(one[1]));
      if (comment === undefined) return send(404, { message: 'Not Found' });
      if (typeof body.body !== 'string') return send(422, { message: 'body is missing' });
      comment.body = body.body;
      return send(200, comment);
    }
    return send(404, { message: 'Not Found' });
  }
}

/** Vitest helper: a stand-in for the file's tests, started before and closed after. */
export function useGitHubStandIn(options: ConstructorParameters<typeof GitHubStandIn>[0]): () => GitHubStandIn {
  const standIn = new GitHubStandIn(options);
  beforeAll(() => standIn.start());
  afterAll(() => standIn.close());
  return () => standIn;
}
