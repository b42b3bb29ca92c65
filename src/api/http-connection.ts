import { performance } from 'node:perf_hooks';
import type { Agent } from 'undici';
import { checkedUrl, endpointUrl } from './base-url.js';
import { debugLine, type EmitEvent } from './events.js';
import { exchange } from './exchange.js';
import { Pacer, type RateAnswer } from './pacer.js';
import { envelopeData, parseRetryAfter, requestIdOf } from './response.js';
import type { RetryClock, RetryMode, RetryPolicy } from './retry.js';
import { createAgent, send, transportFailure, type HttpRequest, type HttpResponse, type SendBounds } from './transport.js';

export interface ConnectionOptions {
  baseUrl: string;
  apiKey: string;
  userAgent: string;
  policy: RetryPolicy;
  emit: EmitEvent;
  debug: boolean;
  timeoutMs: number;
  /** The most bytes read of one answer's body. */
  maxAnswerBytes: number;
  /** Time allowed for one API call's attempt, from sending to the last byte of its answer. */
  deadlineMs: number;
  /** The time retries are waited in (a test's, to let waits go by at once); the real one by default. */
  retryClock?: RetryClock;
}

const MIN_REDACTED_KEY_LENGTH = 8;

/** One JSON call of the API. */
export interface JsonCall {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Endpoint path under the base URL, e.g. `/posts/{id}` already filled in. */
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  idempotencyKey?: string;
  mode: RetryMode;
  /** For people: "listing posts", "scheduling a post". */
  operation: string;
  signal?: AbortSignal;
}

/** One PUT of bytes to a presigned storage URL (no API key: the URL carries its own signature). */
export interface StoragePut {
  url: string;
  headers: Record<string, string>;
  body: () => AsyncIterable<Uint8Array>;
  operation: string;
  signal?: AbortSignal;
}

/**
 * Everything below the typed endpoints: the keep-alive agent, the bearer key, the shared pacer,
 * retries, debug lines and redaction. The key lives only in a private field and in the
 * Authorization header of API requests; it is never sent to storage URLs.
 */
export class HttpConnection {
  readonly #authorization: string;
  readonly #apiKey: string;
  private readonly base: URL;
  private readonly agent: Agent;
  private readonly pacer: Pacer;
  private readonly options: Omit<ConnectionOptions, 'apiKey'>;

  constructor(options: ConnectionOptions) {
    const { apiKey, ...rest } = options;
    this.options = rest;
    this.base = checkedUrl(options.baseUrl, 'API URL');
    this.#apiKey = apiKey;
    this.#authorization = `Bearer ${apiKey}`;
    this.agent = createAgent({ connectMs: Math.min(10_000, options.timeoutMs), responseMs: options.timeoutMs });
    this.pacer = new Pacer(options.emit);
  }

  /**
   * Replaces every occurrence of the key (a server might echo it) with `***`. Keys shorter than
   * MIN_REDACTED_KEY_LENGTH are left alone: redacting them would mangle ordinary words.
   */
  readonly redact = (text: string): string => (this.#apiKey.length < MIN_REDACTED_KEY_LENGTH ? text : text.split(this.#apiKey).join('***'));

  async json<T>(call: JsonCall): Promise<T> {
    return (await this.jsonAndText<T>(call)).data;
  }

  /** `json`, with the response text the data was parsed from (a caller may keep the text instead of the objects). */
  async jsonAndText<T>(call: JsonCall): Promise<{ data: T; text: string }> {
    const url = endpointUrl(this.base, call.path, call.query);
    const headers: Record<string, string> = {
      authorization: this.#authorization,
      accept: 'application/json',
      'user-agent': this.options.userAgent,
    };
    if (call.idempotencyKey !== undefined) headers['idempotency-key'] = call.idempotencyKey;
    const request: HttpRequest = { method: call.method, url, headers };
    if (call.body !== undefined) {
      headers['content-type'] = 'application/json';
      request.body = JSON.stringify(call.body);
    }
    if (call.signal) request.signal = call.signal;
    const response = await exchange({
      method: call.method,
      path: url.pathname,
      operation: call.operation,
      mode: call.mode,
      policy: this.options.policy,
      ...(this.options.retryClock === undefined ? {} : { clock: this.options.retryClock }),
      emit: this.options.emit,
      redact: this.redact,
      signal: call.signal,
      attempt: (attempt) => this.paced(request, attempt, { maxBodyBytes: this.options.maxAnswerBytes, deadlineMs: this.options.deadlineMs }),
    });
    // No content, or accepted with no body (a gateway in front of the service): the write landed, its answer is not shown.
    if (response.status === 204 || (response.status === 202 && response.text.trim() === '')) return { data: undefined as T, text: response.text };
    return { data: envelopeData<T>(response, `${call.operation} (${call.method} ${url.pathname})`), text: response.text };
  }

  /**
   * Retried like any safe call: every attempt streams the bytes again from `body()`. No deadline:
   * sending the bytes takes as long as they are many; the idle timeouts still hold.
   */
  async storagePut(put: StoragePut): Promise<HttpResponse> {
    const url = checkedUrl(put.url, 'upload URL');
    const request: HttpRequest = { method: 'PUT', url, headers: { 'user-agent': this.options.userAgent, ...put.headers }, body: put.body };
    if (put.signal) request.signal = put.signal;
    return exchange({
      method: 'PUT',
      path: url.pathname,
      operation: put.operation,
      mode: 'safe',
      policy: this.options.policy,
      ...(this.options.retryClock === undefined ? {} : { clock: this.options.retryClock }),
      emit: this.options.emit,
      redact: this.redact,
      signal: put.signal,
      attempt: (attempt) => this.timed(request, attempt, { authorized: false, bounds: { maxBodyBytes: this.options.maxAnswerBytes } }),
    });
  }

  async close(): Promise<void> {
    this.pacer.close();
    await this.agent.close();
  }

  private async paced(request: HttpRequest, attempt: number, bounds: SendBounds): Promise<HttpResponse> {
    const ticket = await this.pacer.acquire(request.signal);
    let answer: RateAnswer | undefined;
    try {
      const response = await this.timed(request, attempt, { authorized: true, bounds });
      answer = rateAnswer(response);
      return response;
    } finally {
      this.pacer.settle(ticket, answer);
    }
  }

  private async timed(request: HttpRequest, attempt: number, options: { authorized: boolean; bounds: SendBounds }): Promise<HttpResponse> {
    const { authorized } = options;
    const startedAt = performance.now();
    const line = (outcome: string, requestId?: string): void => {
      if (!this.options.debug) return;
      const message = debugLine({ method: request.method, path: request.url.pathname, outcome, requestId, ms: performance.now() - startedAt, attempt, authorized });
      this.options.emit({ type: 'debug', message: this.redact(message) });
    };
    try {
      const response = await send(this.agent, request, options.bounds);
      line(String(response.status), requestIdOf(response));
      return response;
    } catch (error) {
      line(transportFailure(error)?.code ?? 'error');
      throw error;
    }
  }
}

function rateAnswer(response: HttpResponse): RateAnswer {
  const answer: RateAnswer = { status: response.status };
  const limit = integerHeader(response.headers['x-ratelimit-limit']);
  const remaining = integerHeader(response.headers['x-ratelimit-remaining']);
  if (limit !== undefined && remaining !== undefined) {
    answer.limit = limit;
    answer.remaining = remaining;
  }
  const retryAfter = parseRetryAfter(response.headers['retry-after']);
  if (retryAfter !== undefined) answer.retryAfterSeconds = retryAfter;
  return answer;
}

function integerHeader(value: string | undefined): number | undefined {
  return value !== undefined && /^\s*\d+\s*$/.test(value) ? Number(value) : undefined;
}
