import { expect } from 'vitest';
import { expectMatchesOpenApi } from '../helpers/openapi.js';

/**
 * A black-box HTTP client for the conformance suite. Every response it receives is checked
 * against schemas/openapi.yaml and against the header rules of the spec before a test sees it,
 * so no test can forget to.
 */

export interface Reply<T = any> {
  status: number;
  headers: Headers;
  /** Parsed JSON when the response is JSON, else the raw text. */
  body: T;
}

export interface RequestOptions {
  /** Path parameters substituted into the template, e.g. `{ id }` for `/posts/{id}`. */
  params?: Record<string, string>;
  query?: Record<string, string | number | undefined> | [string, string][];
  /** Serialised as JSON. */
  json?: unknown;
  /** Sent as is (with `Content-Type: application/json`), for malformed, padded or streamed bodies. */
  raw?: string | Uint8Array | ReadableStream<Uint8Array>;
  headers?: Record<string, string>;
}

type Query = NonNullable<RequestOptions['query']>;

function queryString(query: Query | undefined): string {
  if (!query) return '';
  const entries = Array.isArray(query)
    ? query
    : Object.entries(query).flatMap(([name, value]) => (value === undefined ? [] : [[name, String(value)] as [string, string]]));
  const text = new URLSearchParams(entries).toString();
  return text ? `?${text}` : '';
}

export function fillTemplate(template: string, params: Record<string, string> = {}): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`no value for {${name}} in ${template}`);
    return encodeURIComponent(value);
  });
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  const type = response.headers.get('content-type') ?? '';
  if (text.length > 0 && type.includes('json')) return JSON.parse(text) as unknown;
  return text.length > 0 ? text : undefined;
}

/**
 * The spec's header rules on JSON responses: `X-Request-Id` equals `meta.requestId`, and
 * `Cache-Control: no-store` (the document checks the value; this checks the pairing).
 */
function expectRequestIdPairing(reply: Reply<unknown>): void {
  const meta = (reply.body as { meta?: { requestId?: unknown } } | undefined)?.meta;
  if (meta && typeof meta === 'object') expect(reply.headers.get('x-request-id')).toBe(meta.requestId);
}

/** Sends one request to `url` and validates the answer as `method template` of the document. */
export async function send(method: string, template: string, url: string, init: RequestInit): Promise<Reply> {
  const response = await fetch(url, { ...init, method });
  const body = await readBody(response);
  expectMatchesOpenApi(method, template, response.status, body, response.headers);
  const reply = { status: response.status, headers: response.headers, body };
  expectRequestIdPairing(reply);
  return reply as Reply;
}

/** A caller of the Public Posting API holding one key (`null`: no Authorization header). */
export class ApiClient {
  constructor(
    readonly baseUrl: string,
    readonly key: string | null,
  ) {}

  withKey(key: string | null): ApiClient {
    return new ApiClient(this.baseUrl, key);
  }

  async request(method: string, template: string, options: RequestOptions = {}): Promise<Reply> {
    const headers: Record<string, string> = { ...options.headers };
    if (this.key !== null) headers.authorization = `Bearer ${this.key}`;
    let body: string | Uint8Array | ReadableStream<Uint8Array> | undefined;
    if (options.raw !== undefined) body = options.raw;
    else if (options.json !== undefined) body = JSON.stringify(options.json);
    if (body !== undefined) headers['content-type'] ??= 'application/json';
    const url = `${this.baseUrl}${fillTemplate(template, options.params)}${queryString(options.query)}`;
    // A streamed body goes out chunked (no Content-Length); fetch needs half duplex for that.
    const duplex = body instanceof ReadableStream ? { duplex: 'half' as const } : {};
    return send(method, template, url, { headers, body, ...duplex });
  }

  get(template: string, options?: RequestOptions): Promise<Reply> {
    return this.request('GET', template, options);
  }

  post(template: string, json: unknown, options: RequestOptions = {}): Promise<Reply> {
    return this.request('POST', template, { ...options, json });
  }

  patch(template: string, json: unknown, options: RequestOptions = {}): Promise<Reply> {
    return this.request('PATCH', template, { ...options, json });
  }

  delete(template: string, options?: RequestOptions): Promise<Reply> {
    return this.request('DELETE', template, options);
  }
}

/** Asserts an Error-envelope answer with this status (and code, when given); returns the messages. */
export function expectError(reply: Reply, status: number, code?: string): string[] {
  expect(reply.status, JSON.stringify(reply.body)).toBe(status);
  if (code !== undefined) expect(reply.body?.error?.code).toBe(code);
  const message: unknown = reply.body?.error?.message;
  return Array.isArray(message) ? (message as string[]) : [String(message)];
}
