import { describe, expect, it } from 'vitest';
import { ApiClient, ApiError } from '../../src/api/index.js';
import { PostsyncError } from '../../src/errors.js';
import { sendError, startLocalPeer, useCleanup } from './local-peer.js';

const track = useCleanup();

async function clientOf(respond: Parameters<typeof startLocalPeer>[0]): Promise<ApiClient> {
  const peer = track(await startLocalPeer(respond));
  return track(new ApiClient({ baseUrl: peer.baseUrl, apiKey: 'test-key-123', maxAttempts: 1 }));
}

async function failingWith(respond: Parameters<typeof startLocalPeer>[0], call: (client: ApiClient) => Promise<unknown>): Promise<ApiError> {
  const error = await call(await clientOf(respond)).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(ApiError);
  expect(error).toBeInstanceOf(PostsyncError);
  return error as ApiError;
}

describe('every non-2xx answer becomes one ApiError', () => {
  it('reads status, code, a string message as one item, the request id and Retry-After', async () => {
    const error = await failingWith(
      (_req, _i, res) => sendError(res, 409, 'idempotency_in_progress', 'still working', { 'retry-after': '3' }),
      (c) => c.getPost('p1'),
    );
    expect(error).toMatchObject({ status: 409, code: 'idempotency_in_progress', messages: ['still working'], requestId: 'req-409', retryAfterSeconds: 3, method: 'GET', path: '/public/v1/posts/p1', attempts: 1 });
  });

  it('keeps an array of messages as it is', async () => {
    const error = await failingWith(
      (_req, _i, res) => sendError(res, 400, 'validation_failed', ['content is too long', 'targets has 21 items']),
      (c) => c.updatePost('p1', { content: 'x' }),
    );
    expect(error.messages).toEqual(['content is too long', 'targets has 21 items']);
    expect(error.message).toContain('content is too long; targets has 21 items');
  });

  it('handles a 413 with a plain-text body and with an empty body', async () => {
    const plain = await failingWith((_req, _i, res) => {
      res.writeHead(413, { 'content-type': 'text/plain' });
      res.end('Payload Too Large');
    }, (c) => c.createPost({ content: 'x', targets: [], mediaIds: [] }, { idempotencyKey: 'k1' }));
    expect(plain).toMatchObject({ status: 413, code: 'payload_too_large', messages: ['Payload Too Large'] });
    expect(plain.message).toContain('100 KB');
    const empty = await failingWith((_req, _i, res) => {
      res.writeHead(413);
      res.end();
    }, (c) => c.updatePost('p1', { content: 'x' }));
    expect(empty).toMatchObject({ status: 413, code: 'payload_too_large', messages: [] });
    expect(empty.requestId).toBeUndefined();
  });

  it('gives a bare answer of another status the code http_<status>', async () => {
    const error = await failingWith((_req, _i, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<html>bad gateway</html>');
    }, (c) => c.getPost('p1'));
    expect(error).toMatchObject({ status: 502, code: 'http_502' });
  });
});

describe('messages say what to do', () => {
  it('a paused key: paused by a project admin, ask them to resume it or use another key', async () => {
    const error = await failingWith((_req, _i, res) => sendError(res, 403, 'api_key_paused', 'the key is paused'), (c) => c.session());
    expect(error.message).toContain('the API key is paused by a project admin; ask them to resume it or use another key');
  });

  it('a missing permission names the permission and the operation that needs it', async () => {
    const error = await failingWith(
      (_req, _i, res) => sendError(res, 403, 'missing_permission', 'this key lacks the posts-publish permission'),
      (c) => c.updatePost('p1', { scheduledAt: '2030-01-01T00:00:00Z' }),
    );
    expect(error.message).toMatch(/^Scheduling a post failed: scheduling a post needs the posts-publish permission/);
    expect(error.message).toContain('scheduling posts');
    expect(error.hint).toContain('grant posts-publish');
  });

  it('a 401 points at POSTSYNC_API_KEY, a 404 at deleted posts and the API URL', async () => {
    const unauthorized = await failingWith((_req, _i, res) => sendError(res, 401, 'unauthorized', 'unknown key'), (c) => c.accounts());
    expect(unauthorized.message).toContain('check POSTSYNC_API_KEY');
    const notFound = await failingWith((_req, _i, res) => sendError(res, 404, 'not_found', 'no post p1'), (c) => c.deletePost('p1'));
    expect(notFound.message).toMatch(/^Deleting a post failed: not found \(no post p1\); it may have been deleted/);
    expect(notFound.message).toContain('(404 not_found, request id req-404)');
  });
});

describe('a 2xx answer', () => {
  it('passes unknown fields and unknown status values through untouched', async () => {
    const post = { id: 'p1', status: 'under_review', content: 'x', scheduledAt: null, createdAt: 'c', updatedAt: 'u', targets: [{ socialAccountId: 'a', status: 'queued_elsewhere', extra: { deep: [1, 2] } }], media: [], futureField: 42 };
    const client = await clientOf((_req, _i, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ data: post, meta: { requestId: 'r' } }));
    });
    expect(await client.getPost('p1')).toEqual(post);
  });

  it('without a JSON success envelope is a PostsyncError naming the API URL', async () => {
    const client = await clientOf((_req, _i, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>a login page</html>');
    });
    const error = await client.session().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PostsyncError);
    expect((error as PostsyncError).hint).toContain('POSTSYNC_API_URL');
  });
});
