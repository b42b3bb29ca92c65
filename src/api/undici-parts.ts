import { createRequire } from 'node:module';
import type { Agent, Dispatcher } from 'undici';

const require = createRequire(import.meta.url);

/** Sends one request through `dispatcher` (undici's `request`, with origin and path split). */
export type SendRequest = (dispatcher: Dispatcher, options: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;

/** The parts of undici the client uses, and where they were loaded from. */
export interface UndiciParts {
  Agent: typeof Agent;
  request: SendRequest;
  /** `modules`: from their own files; `index`: from the package index (the fallback). */
  loadedFrom: 'modules' | 'index';
}

/**
 * The agent and `request`, loaded from their own modules: undici's index also loads fetch,
 * WebSocket, EventSource, the mock agents and the cache stores, which every run would pay for at
 * start-up without using them (bench/README.md, Ledger). The paths
 * are undici's internal layout (the package has no `exports` map that hides them); should a
 * release move them, the index is used instead, and a test notices.
 */
function loadUndici(): UndiciParts {
  try {
    const agent = require('undici/lib/dispatcher/agent.js') as unknown;
    const request = require('undici/lib/api/api-request.js') as unknown;
    if (typeof agent === 'function' && typeof request === 'function') {
      return {
        Agent: agent as typeof Agent,
        request: (dispatcher, options) => (request as (this: Dispatcher, options: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>).call(dispatcher, options),
        loadedFrom: 'modules',
      };
    }
  } catch {
    // Moved or renamed in this undici release: fall through to the index.
  }
  const undici = require('undici') as typeof import('undici');
  return { Agent: undici.Agent, request: (dispatcher, options) => dispatcher.request(options), loadedFrom: 'index' };
}

export const undici: UndiciParts = loadUndici();
