import { PostsyncError } from '../errors.js';
import { HttpConnection } from './http-connection.js';
import type { ClientEvent } from './events.js';
import { allItems, collect } from './paging.js';
import { readAccounts } from './read-account.js';
import { readAnalyticsItems } from './read-analytics-item.js';
import { readCapabilities } from './read-capabilities.js';
import { readPost } from './read-post.js';
import { readSession } from './read-session.js';
import { readCompletedMedia, readMultipartResult, readUploadTicket } from './read-upload.js';
import { DEFAULT_RETRY_POLICY, type RetryClock } from './retry.js';
import type {
  Account,
  AnalyticsItem,
  AnalyticsQuery,
  Capabilities,
  CreatePostBody,
  CreateUploadBody,
  ListPostsQuery,
  Media,
  MultipartOperation,
  MultipartResult,
  Page,
  PatchPostBody,
  Post,
  Session,
  UploadTicket,
} from './types.js';
import { uploadMultipart, uploadSingle, type MultipartOutcome, type MultipartUpload, type MultipartUploadOptions, type SingleUploadFile } from './upload.js';

export interface ClientOptions {
  /** Includes /public/v1. Plain http:// only for loopback hosts. */
  baseUrl: string;
  apiKey: string;
  userAgent?: string;
  /** Attempts per call, the first included; default 6. */
  maxAttempts?: number;
  /** Total time across the retries of one call; default 60 000 ms. */
  retryBudgetMs?: number;
  /** The time retries are read and waited in; the real one by default (a test passes one whose waits go by at once). */
  retryClock?: RetryClock;
  /** Retries, waits, throttling and debug lines; the CLI renders them. */
  onEvent?: (event: ClientEvent) => void;
  /** Debug lines (method, path, status, request id, ms); default: POSTSYNC_DEBUG=1. */
  debug?: boolean;
  /** Time allowed for response headers and between body chunks; default 30 000 ms. */
  timeoutMs?: number;
  /**
   * Time allowed for one attempt of an API call, from sending to the last byte of the answer, so
   * a remote that drips its answer cannot hold a run (storage uploads excepted: their time grows
   * with the file); default DEFAULT_DEADLINE_MS, POSTSYNC_API_TIMEOUT_MS in the CLI.
   */
  deadlineMs?: number;
  /** The most bytes read of one answer, so a remote cannot exhaust memory; default DEFAULT_MAX_ANSWER_BYTES (bench/README.md says why that size). */
  maxAnswerBytes?: number;
}

const DEFAULT_DEADLINE_MS = 120_000;
const DEFAULT_MAX_ANSWER_BYTES = 32 * 1024 * 1024;

/** Page size the listing iterators ask for when the caller sets none (fewer round trips). */
const LIST_PAGE_SIZE = 100;

const MULTIPART_OPERATION_TEXT: Record<MultipartOperation, string> = {
  list: 'listing the stored parts of a multipart upload',
  sign: 'signing part {part} of a multipart upload',
  complete: 'completing a multipart upload',
  abort: 'aborting a multipart upload',
};

/**
 * The typed, paced, retrying client of the Public Posting API: one method per endpoint. Unknown
 * fields and status values in answers pass through untouched. Call `close()` when done.
 */
export class ApiClient {
  private readonly connection: HttpConnection;

  constructor(options: ClientOptions) {
    this.connection = new HttpConnection({
      baseUrl: options.baseUrl,
      apiKey: options.apiKey,
      userAgent: options.userAgent ?? 'postsync',
      policy: {
        ...DEFAULT_RETRY_POLICY,
        maxAttempts: options.maxAttempts ?? DEFAULT_RETRY_POLICY.maxAttempts,
        budgetMs: options.retryBudgetMs ?? DEFAULT_RETRY_POLICY.budgetMs,
      },
      emit: options.onEvent ?? (() => {}),
      debug: options.debug ?? process.env.POSTSYNC_DEBUG === '1',
      timeoutMs: options.timeoutMs ?? 30_000,
      deadlineMs: options.deadlineMs ?? DEFAULT_DEADLINE_MS,
      maxAnswerBytes: options.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES,
      ...(options.retryClock === undefined ? {} : { retryClock: options.retryClock }),
    });
  }

  /** The session, read by the names a service may give its fields (`readSession`). */
  async session(): Promise<Session> {
    return readSession(await this.connection.json<unknown>({ method: 'GET', path: '/auth/session', mode: 'safe', operation: 'reading the API key session' }));
  }

  /** Every account, over all pages; a bare array in `data` is accepted too. */
  async accounts(): Promise<Account[]> {
    const first = await this.accountsPage(undefined);
    if (Array.isArray(first)) return readAccounts(first);
    return readAccounts(await collect(allItems('accounts', async (after) => (after === undefined ? first : ((await this.accountsPage(after)) as Page<unknown>)))));
  }

  async capabilities(accountId: string): Promise<Capabilities> {
    const data = await this.connection.json<unknown>({ method: 'GET', path: `/accounts/${encodeURIComponent(accountId)}/capabilities`, mode: 'safe', operation: 'reading account capabilities' });
    return readCapabilities(data, accountId);
  }

  /** Every post matching the filters, over all pages. */
  listPosts(query: Omit<ListPostsQuery, 'after' | 'before'> = {}): AsyncIterable<Post> {
    const filters = { limit: LIST_PAGE_SIZE, ...query };
    return allItems('posts', (after) => this.listPostsPage({ ...filters, after }));
  }

  listPostsPage(query: ListPostsQuery): Promise<Page<Post>> {
    return this.connection.json({ method: 'GET', path: '/posts', query: { ...query }, mode: 'safe', operation: 'listing posts' });
  }

  async getPost(id: string): Promise<Post> {
    return readPost('GET /posts/{id}', await this.connection.json<unknown>({ method: 'GET', path: `/posts/${encodeURIComponent(id)}`, mode: 'safe', operation: 'reading a post' }));
  }

  /** Retried safely: a repeat carries the same Idempotency-Key and payload, so it returns the same post. */
  async createPost(body: CreatePostBody, options: { idempotencyKey: string }): Promise<Post> {
    if (!options.idempotencyKey) throw new PostsyncError('createPost needs a non-empty Idempotency-Key.');
    const operation = body.scheduledAt ? 'creating a scheduled post' : 'creating a post';
    const answer = await this.connection.json<unknown>({ method: 'POST', path: '/posts', body, idempotencyKey: options.idempotencyKey, mode: 'safe', operation });
    if (answer === undefined) {
      // Without the post's id it cannot be read back: the create stays pending, and the next run finds its post or resends it under the same key.
      throw new PostsyncError('POST /posts: the API accepted the post but answered with no body, so its id is unknown; the create stays pending and the next apply finds the post (or resends it under the same Idempotency-Key).');
    }
    return readPost('POST /posts', answer);
  }

  /** The post as updated; answered 202 or 204 with no body (the write landed), the post is read back. */
  async updatePost(id: string, body: PatchPostBody): Promise<Post> {
    const operation = body.scheduledAt ? 'scheduling a post' : 'editing a post';
    const answer = await this.connection.json<unknown>({ method: 'PATCH', path: `/posts/${encodeURIComponent(id)}`, body, mode: 'safe', operation });
    return answer === undefined ? this.getPost(id) : readPost('PATCH /posts/{id}', answer);
  }

  async deletePost(id: string): Promise<void> {
    await this.connection.json({ method: 'DELETE', path: `/posts/${encodeURIComponent(id)}`, mode: 'safe', operation: 'deleting a post' });
  }

  /**
   * With an Idempotency-Key (the emulator honours one here, like on POST /posts) every failure is
   * retried, the same key and body returning the same ticket. Without one it is not repeated once
   * the request may have reached the server: a repeat would create a second media.
   */
  async createUpload(body: CreateUploadBody, options: { idempotencyKey?: string } = {}): Promise<UploadTicket> {
    const retry = options.idempotencyKey ? { idempotencyKey: options.idempotencyKey, mode: 'safe' as const } : { mode: 'unsent-only' as const };
    return readUploadTicket(await this.connection.json<unknown>({ method: 'POST', path: '/media/uploads', body, ...retry, operation: 'starting a media upload' }));
  }

  uploadSingle(ticket: UploadTicket, file: SingleUploadFile, options: { onProgress?: (sentBytes: number) => void } = {}): Promise<void> {
    return uploadSingle(this.connection, ticket, file, options.onProgress);
  }

  /** Resumes with `list`, sends only missing parts (bounded parallel), then `complete`; does not call completeMedia. */
  uploadMultipart(upload: MultipartUpload, file: { path: string; sizeBytes: number }, options: MultipartUploadOptions = {}): Promise<MultipartOutcome> {
    return uploadMultipart(this.connection, (mediaId, operation, partNumber) => this.multipart(mediaId, operation, partNumber, options.signal), upload, file, options);
  }

  /** Every operation is idempotent (sign, list, complete, abort), so all are retried. */
  async multipart(mediaId: string, operation: MultipartOperation, partNumber?: number, signal?: AbortSignal): Promise<MultipartResult> {
    const body = partNumber === undefined ? { operation } : { operation, partNumber };
    const operationText = MULTIPART_OPERATION_TEXT[operation].replace('{part}', String(partNumber));
    return readMultipartResult(operation, await this.connection.json<unknown>({ method: 'POST', path: `/media/${encodeURIComponent(mediaId)}/multipart`, body, mode: 'safe', operation: operationText, signal }));
  }

  async completeMedia(mediaId: string): Promise<Media> {
    return readCompletedMedia(await this.connection.json<unknown>({ method: 'POST', path: `/media/${encodeURIComponent(mediaId)}/complete`, mode: 'safe', operation: 'completing a media upload' }));
  }

  /** Every analytics item matching the filters, over all pages (opaque `cursor`). */
  analytics(query: AnalyticsQuery = {}): AsyncIterable<AnalyticsItem> {
    const { cursor: start, ...filters } = query;
    return readAnalyticsItems(
      allItems('analytics', (cursor) =>
        this.connection.json<Page<unknown>>({ method: 'GET', path: '/analytics/posts', query: { limit: LIST_PAGE_SIZE, ...filters, cursor: cursor ?? start }, mode: 'safe', operation: 'reading analytics' }),
      ),
    );
  }

  /** Closes the keep-alive connections; requests still waiting for the rate limiter are rejected. */
  close(): Promise<void> {
    return this.connection.close();
  }

  private accountsPage(after: string | undefined): Promise<unknown[] | Page<unknown>> {
    return this.connection.json({ method: 'GET', path: '/accounts', query: { limit: LIST_PAGE_SIZE, after }, mode: 'safe', operation: 'listing accounts' });
  }
}
