import { afterAll, beforeAll, expect } from 'vitest';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../src/emulator/index.js';
import { ApiClient, send, type Reply } from './client.js';
import { KEYS, conformanceFixture } from './fixture.js';

/**
 * One emulator on port 0 per test file, seen only through HTTP: the API with any key, the
 * presigned storage URLs it hands out, and the `/_emulator` control endpoints. Every answer goes
 * through the OpenAPI check in client.ts.
 */
export interface Conformance {
  origin: string;
  /** What a state-changing control request sends as X-Postsync-Token. */
  controlToken: string;
  /** A client holding `key` (default: the all-permission key of project `acme`). */
  api(key?: string | null): ApiClient;
  control: {
    /** The emulator's current time (a zero clock move, which also publishes what is due). */
    now(): Promise<string>;
    advanceClock(seconds: number): Promise<{ now: string; published: number }>;
    faults(spec: string): Promise<void>;
    reset(): Promise<void>;
    requests(): Promise<Reply>;
  };
  /** PUT bytes to a presigned URL (single object or part); the template is found from the path. */
  storagePut(url: string, bytes: Uint8Array, headers?: Record<string, string>): Promise<Reply>;
  storageGet(url: string): Promise<Reply>;
}

const STORAGE_TEMPLATES: [RegExp, string][] = [
  [/^\/_storage\/media\/[^/]+\/[^/]+$/, '/_storage/media/{mediaId}/{fileName}'],
  [/^\/_storage\/uploads\/[^/]+\/part-\d+$/, '/_storage/uploads/{mediaId}/part-{partNumber}'],
  [/^\/_storage\/posters\/[^/]+\.png$/, '/_storage/posters/{mediaId}.png'],
];

function storageTemplate(url: string): string {
  const { pathname } = new URL(url);
  const found = STORAGE_TEMPLATES.find(([pattern]) => pattern.test(pathname));
  if (!found) throw new Error(`${pathname} is not a storage path the document describes`);
  return found[1];
}

function harness(running: RunningEmulator): Conformance {
  const { origin, baseUrl } = running;
  const control = async (method: string, name: string, body?: unknown): Promise<Reply> => {
    const token = { 'x-postsync-token': running.controlToken };
    const init: RequestInit = body === undefined ? { headers: token } : { body: JSON.stringify(body), headers: { 'content-type': 'application/json', ...token } };
    const reply = await send(method, `/_emulator/${name}`, `${origin}/_emulator/${name}`, init);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    return reply;
  };
  return {
    origin,
    controlToken: running.controlToken,
    api: (key = KEYS.full) => new ApiClient(baseUrl, key),
    control: {
      now: async () => (await control('POST', 'clock', { advanceSeconds: 0 })).body.data.now,
      advanceClock: async (seconds) => (await control('POST', 'clock', { advanceSeconds: seconds })).body.data,
      faults: async (spec) => void (await control('POST', 'faults', { spec })),
      reset: async () => void (await control('POST', 'reset')),
      requests: () => control('GET', 'requests'),
    },
    storagePut: (url, bytes, headers = {}) => send('PUT', storageTemplate(url), url, { body: bytes, headers }),
    storageGet: (url) => send('GET', storageTemplate(url), url, {}),
  };
}

/**
 * Starts an emulator with the conformance fixture (or `options.fixture`) before the file's tests.
 * `options` may be a function, for options that only exist once tests run (a temp `dataDir`).
 */
export function useConformance(options: EmulatorOptions | (() => Promise<EmulatorOptions>) = {}): () => Conformance {
  let running: RunningEmulator | undefined;
  let ready: Conformance | undefined;
  beforeAll(async () => {
    const resolved = typeof options === 'function' ? await options() : options;
    running = await startEmulator({ port: 0, fixture: conformanceFixture(), ...resolved });
    ready = harness(running);
  });
  afterAll(async () => {
    await running?.close();
  });
  return () => {
    if (!ready) throw new Error('the emulator starts in beforeAll; call the getter inside a test');
    return ready;
  };
}
