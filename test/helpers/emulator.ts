import { afterAll, beforeAll } from 'vitest';
import { DEMO_API_KEY, startEmulator, type EmulatorOptions, type RequestLogEntry, type RunningEmulator } from '../../src/emulator/index.js';

/** A JSON answer: status, headers and the parsed body (undefined when empty or not JSON). */
export interface JsonResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface CallOptions {
  body?: unknown;
  /** Raw body text instead of JSON (e.g. to send invalid JSON). */
  rawBody?: string;
  /** API key; default the demo key; null sends no Authorization header. */
  key?: string | null;
  headers?: Record<string, string>;
}

/** A running emulator plus small helpers for the API and the control endpoints. */
export interface TestEmulator extends RunningEmulator {
  /** Calls `${baseUrl}${path}` with the demo key (or `options.key`). */
  api<T = any>(method: string, path: string, options?: CallOptions): Promise<JsonResponse<T>>;
  requestLog(): Promise<RequestLogEntry[]>;
  clearLog(): Promise<void>;
  advanceClock(seconds: number): Promise<{ now: string; published: number }>;
  setClock(now: Date): Promise<{ now: string; published: number }>;
  setFaults(spec: string): Promise<void>;
  reset(): Promise<void>;
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

async function call<T>(url: string, method: string, options: CallOptions = {}): Promise<JsonResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  const key = options.key === undefined ? DEMO_API_KEY : options.key;
  if (key !== null) headers.Authorization = `Bearer ${key}`;
  let body: string | undefined;
  if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined) headers['Content-Type'] ??= 'application/json';
  const response = await fetch(url, { method, headers, body });
  return { status: response.status, headers: response.headers, body: (await readJson(response)) as T };
}

async function control<T>(emulator: RunningEmulator, method: string, path: string, body?: unknown): Promise<T> {
  const response = await call<{ data: T }>(`${emulator.origin}/_emulator/${path}`, method, { body, key: null, headers: { 'X-Postsync-Token': emulator.controlToken } });
  if (response.status !== 200) throw new Error(`control ${method} ${path} answered ${response.status}: ${JSON.stringify(response.body)}`);
  return response.body.data;
}

/** Starts an emulator on port 0 (demo fixture unless given) with the helpers attached. */
export async function startTestEmulator(options: EmulatorOptions = {}): Promise<TestEmulator> {
  const running = await startEmulator({ port: 0, ...options });
  const { baseUrl } = running;
  return {
    ...running,
    api: (method, path, callOptions) => call(`${baseUrl}${path}`, method, callOptions),
    requestLog: () => control<RequestLogEntry[]>(running, 'GET', 'requests'),
    clearLog: async () => void (await control(running, 'DELETE', 'requests')),
    advanceClock: (seconds) => control(running, 'POST', 'clock', { advanceSeconds: seconds }),
    setClock: (now) => control(running, 'POST', 'clock', { now: now.toISOString() }),
    setFaults: async (spec) => void (await control(running, 'POST', 'faults', { spec })),
    reset: async () => void (await control(running, 'POST', 'reset')),
  };
}

/**
 * Vitest helper: starts an emulator before the tests of the enclosing file/describe and closes it
 * after. Returns a getter, since the emulator exists only once `beforeAll` ran.
 */
export function useEmulator(options: EmulatorOptions = {}): () => TestEmulator {
  let emulator: TestEmulator | undefined;
  beforeAll(async () => {
    emulator = await startTestEmulator(options);
  });
  afterAll(async () => {
    await emulator?.close();
  });
  return () => {
    if (!emulator) throw new Error('the emulator starts in beforeAll; call the getter inside a test');
    return emulator;
  };
}
