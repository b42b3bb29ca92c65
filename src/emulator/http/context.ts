import type { IncomingHttpHeaders } from 'node:http';
import type { Caller } from './auth.js';
import type { EmulatorClock } from '../store/clock.js';
import type { Reply } from '../protocol/envelope.js';
import type { ObjectStorage } from '../store/storage.js';
import type { EmulatorStore, Project } from '../store/store.js';

/** The long-lived parts of a running emulator that handlers use. */
export interface Services {
  readonly store: EmulatorStore;
  readonly clock: EmulatorClock;
  readonly storage: ObjectStorage;
  /** e.g. http://127.0.0.1:41234; absolute URLs in responses start with it. */
  origin: string;
  /** True with --data: stored objects are fsynced before an upload is acknowledged. */
  readonly durable: boolean;
  /** Resolves once every change made so far is durable (journal fsync); at once in memory. */
  commit(): Promise<void>;
  /**
   * Runs `done` once the changes made so far are on disk and about to be answered: at the end of
   * the running transaction's hold of the lock (with --data), at once in memory. Until then a
   * request of the same hold sees them as still being processed.
   */
  whenDurable(done: () => void): void;
  /** Brings the store up to date with what other processes serving the same --data folder wrote; at once in memory. */
  refresh(): Promise<void>;
  /**
   * Runs `work`, which may change the store, so that no other process changes it meanwhile and
   * its changes are durable when it resolves (with --data: under the store lock); just runs it in memory.
   */
  transaction<T>(work: () => Promise<T>): Promise<T>;
}

/** One authenticated API request as a handler sees it. */
export interface ApiCall {
  readonly services: Services;
  readonly caller: Caller;
  readonly project: Project;
  readonly params: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  readonly headers: IncomingHttpHeaders;
  readonly requestId: string;
  /** The parsed JSON body (400 invalid_json when it does not parse; undefined when empty). */
  json(): unknown;
}

export type ApiHandler = (call: ApiCall) => Reply | Promise<Reply>;

export interface Route {
  readonly method: string;
  /** Path under /public/v1, with `:name` segments, e.g. `/posts/:id`. */
  readonly path: string;
  readonly handler: ApiHandler;
}

interface CompiledRoute extends Route {
  readonly regex: RegExp;
  readonly names: string[];
}

export class Router {
  private readonly routes: CompiledRoute[];

  constructor(routes: readonly Route[]) {
    this.routes = routes.map((route) => {
      const names: string[] = [];
      const source = route.path.replace(/:([a-zA-Z]+)/g, (_match, name: string) => {
        names.push(name);
        return '([^/]+)';
      });
      return { ...route, regex: new RegExp(`^${source}/?$`), names };
    });
  }

  match(method: string, path: string): { route: Route; params: Record<string, string> } | undefined {
    for (const route of this.routes) {
      if (route.method !== method) continue;
      const m = route.regex.exec(path);
      if (!m) continue;
      const params: Record<string, string> = {};
      route.names.forEach((name, i) => {
        params[name] = decodeURIComponent(m[i + 1] as string);
      });
      return { route, params };
    }
    return undefined;
  }

  /** Methods that exist for a path: the `Allow` header of a 405. */
  methodsFor(path: string): string[] {
    return this.routes.filter((route) => route.regex.test(path)).map((route) => route.method);
  }
}
