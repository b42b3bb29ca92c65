import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for the few GitHub REST endpoints the health check uses (list, create and
 * edit issues, comment), on port 0. It keeps issues in memory, checks the bearer token, and
 * records every request, so tests can see what the workflow did.
 */
export interface StandInIssue {
  number: number;
  title: string;
  body: string;
  state: 'open' | 'closed';
  state_reason: string | null;
  labels: string[];
  comments: string[];
  /** Who wrote it: `github-actions[bot]` for the issues postsync opens with the workflow's token. */
  login: string;
}

export interface GitHubStandIn {
  apiUrl: string;
  issues: StandInIssue[];
  requests: { method: string; path: string }[];
  /** An issue someone else opened, for the stand-in to hold before postsync's. */
  plant(issue: { title: string; body: string; labels: string[]; login: string }): void;
  close(): Promise<void>;
}

export async function startGitHubStandIn(options: { repository: string; token: string }): Promise<GitHubStandIn> {
  const issues: StandInIssue[] = [];
  const requests: GitHubStandIn['requests'] = [];
  const prefix = `/repos/${options.repository}/issues`;
  const view = (issue: StandInIssue) => ({ number: issue.number, title: issue.title, body: issue.body, state: issue.state, labels: issue.labels.map((name) => ({ name })), user: { login: issue.login }, html_url: `https://github.example/${options.repository}/issues/${issue.number}` });

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const url = new URL(request.url ?? '/', 'http://stand-in');
    requests.push({ method: request.method ?? '', path: `${url.pathname}${url.search}` });
    const send = (status: number, body: unknown) => {
      response.writeHead(status, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (request.headers.authorization !== `Bearer ${options.token}`) return send(401, { message: 'Bad credentials' });
    let text = '';
    for await (const chunk of request) text += chunk;
    const body = text === '' ? {} : (JSON.parse(text) as Record<string, any>);
    if (url.pathname === prefix && request.method === 'GET') {
      const label = url.searchParams.get('labels');
      const state = url.searchParams.get('state') ?? 'open';
      return send(200, issues.filter((issue) => (state === 'all' || issue.state === state) && (label === null || issue.labels.includes(label))).map(view));
    }
    if (url.pathname === prefix && request.method === 'POST') {
      const issue: StandInIssue = { number: issues.length + 1, title: body.title, body: body.body ?? '', state: 'open', state_reason: null, labels: body.labels ?? [], comments: [], login: 'github-actions[bot]' };
      issues.push(issue);
      return send(201, view(issue));
    }
    const one = new RegExp(`^${prefix}/(\\d+)(/comments)?$`).exec(url.pathname);
    const issue = one ? issues[Number(one[1]) - 1] : undefined;
    if (!issue) return send(404, { message: 'Not Found' });
    if (one![2] && request.method === 'POST') {
      issue.comments.push(body.body);
      return send(201, { body: body.body });
    }
    if (!one![2] && request.method === 'PATCH') {
      for (const field of ['title', 'body', 'state', 'state_reason'] as const) if (body[field] !== undefined) (issue as any)[field] = body[field];
      return send(200, view(issue));
    }
    return send(404, { message: 'Not Found' });
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      response.writeHead(500);
      response.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    apiUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    issues,
    requests,
    plant: (issue) => void issues.push({ ...issue, number: issues.length + 1, state: 'open', state_reason: null, comments: [] }),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
