import type { Agent as AgentType, Dispatcher } from 'undici';
// Their own modules, not the package index: the index also loads fetch, WebSocket, EventSource,
// the mock agents and the cache stores, which every run would pay for at start-up without using
// them (bench/README.md, Ledger). The paths are undici's internal layout (the package has no
// `exports` map that hides them); should a release move them, the build and the tests fail.
import Agent from 'undici/lib/dispatcher/agent.js';
import apiRequest from 'undici/lib/api/api-request.js';

/** Sends one request through `dispatcher` (undici's `request`, with origin and path split). */
export type SendRequest = (dispatcher: Dispatcher, options: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;

/** The parts of undici the client uses. */
export interface UndiciParts {
  Agent: typeof AgentType;
  request: SendRequest;
}

export const undici: UndiciParts = { Agent, request: (dispatcher, options) => apiRequest.call(dispatcher, options) };
