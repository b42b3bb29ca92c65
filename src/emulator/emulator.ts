import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loopbackHosts, newToken } from '../local-server/guard.js';
import { KeyRing } from './http/auth.js';
import { Chaos, parseChaosSpec } from './http/chaos.js';
import { EmulatorClock } from './store/clock.js';
import type { Services } from './http/context.js';
import { Router } from './http/context.js';
import { handleControl, isLoopbackAddress } from './endpoints/control.js';
import { demoFixture } from './fixture/demo-fixture.js';
import { type Fixture, loadFixture, type RateLimit } from './fixture/fixture.js';
import type { AccountRecord, ProjectSettings } from './store/model.js';
import { publishDue } from './rules/publish.js';
import { RateLimiter } from './rules/rate-limit.js';
import { RequestLog } from './http/request-log.js';
import { apiRoutes } from './endpoints/routes.js';
import { seedPosts } from './seed/seed.js';
import { API_PREFIX, createListener } from './http/server.js';
import { ObjectStorage } from './store/storage.js';
import { handleStorage } from './endpoints/storage-routes.js';
import { SharedStore } from './store/shared-store.js';
import { EmulatorStore } from './store/store.js';

export interface EmulatorOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0 (any free port). */
  port?: number;
  /** A fixture object or a path to a YAML/JSON fixture; default: the demo fixture. */
  fixture?: Fixture | string;
  /** Persist everything under this directory (journal + objects); absent: in memory. */
  dataDir?: string;
  /** Same syntax as `--chaos`, e.g. `rate=0.2,seed=42,kinds=503+reset`. */
  chaos?: string;
  /** Initial emulator clock (default: real now). The clock keeps running from there. */
  now?: Date;
  /**
   * How long a finished create's Idempotency-Key is remembered, in seconds of emulator time
   * (default 86400, as services typically do); 0 forgets every key as soon as it answered.
   */
  idempotencyTtlSeconds?: number;
}

export interface RunningEmulator {
  /** e.g. http://127.0.0.1:41234/public/v1 */
  baseUrl: string;
  /** e.g. http://127.0.0.1:41234 */
  origin: string;
  /**
   * The token of this process that a state-changing control request sends (header
   * X-Postsync-Token): a web page on this machine cannot know it. `serve` prints it.
   */
  controlToken: string;
  close(): Promise<void>;
}

function projectSettings(fixture: Fixture): ProjectSettings[] {
  return fixture.projects.map((project) => ({
    id: project.id,
    rateLimit: project.rateLimit,
    accounts: (project.accounts ?? []).map(
      (account): AccountRecord => ({
        ...account,
        id: account.id.toLowerCase(),
        status: account.status ?? 'active',
        available: account.available ?? true,
        publishBehavior: account.publishBehavior ?? 'publish',
      }),
    ),
  }));
}

function originOf(address: AddressInfo): string {
  const host = address.address === '0.0.0.0' ? '127.0.0.1' : address.address === '::' ? '::1' : address.address;
  return `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
}

/** Starts the local Public Posting API. The first stdout line of `postsync serve` prints `baseUrl`. */
export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const fixture = await loadFixture(options.fixture ?? demoFixture());
  const chaos = new Chaos();
  if (options.chaos) chaos.configure(parseChaosSpec(options.chaos));
  const clock = new EmulatorClock(options.now);
  const ttl = options.idempotencyTtlSeconds;
  if (ttl !== undefined && !(Number.isInteger(ttl) && ttl >= 0)) throw new RangeError(`idempotencyTtlSeconds must be a whole number of 0 or more, got ${ttl}`);
  const store = new EmulatorStore(clock, projectSettings(fixture), { idempotencyTtlSeconds: ttl });
  const { dataDir } = options;

  // With --data, the state is shared with every other process serving the folder (SharedStore).
  const shared = dataDir ? await SharedStore.open(store, dataDir, () => seedPosts(store, fixture.projects)) : undefined;
  if (!shared) seedPosts(store, fixture.projects);
  const storage = await ObjectStorage.open({ dataDir });

  const services: Services = {
    store,
    clock,
    storage,
    durable: dataDir !== undefined,
    origin: '',
    commit: () => shared?.commit() ?? Promise.resolve(),
    whenDurable: (done) => (shared ? shared.whenDurable(done) : done()),
    refresh: () => shared?.refresh() ?? Promise.resolve(),
    transaction: (work) => (shared ? shared.transaction(work) : work()),
  };
  const limits = new Map<string, RateLimit>();
  for (const project of fixture.projects) if (project.rateLimit) limits.set(project.id, project.rateLimit);
  const limiter = new RateLimiter(limits);
  const log = new RequestLog();
  const controlToken = newToken();
  const server: Server = createServer();
  /** The names the server answers as, read once it listens (requests arrive only then). */
  const address = () => server.address() as AddressInfo;
  const hosts = () => loopbackHosts(address().port, address().address);

  const control = {
    policy: () => ({ hosts: hosts(), token: controlToken, tokenFor: 'changes' as const }),
    log,
    chaos,
    moveClock(change: { advanceSeconds: number } | { now: Date }) {
      return services.transaction(async () => {
        if ('now' in change) clock.set(change.now);
        else clock.advance(change.advanceSeconds);
        store.recordClock();
        const published = publishDue(store);
        await services.commit();
        return { now: clock.nowIso(), published };
      });
    },
    async reset() {
      const fill = () => {
        if (options.now) clock.set(options.now);
        else clock.restoreOffset(0);
        seedPosts(store, fixture.projects);
      };
      if (shared) await shared.replaceAll(fill);
      else {
        store.clear();
        fill();
      }
      await storage.clear();
      log.clear();
      chaos.configure(parseChaosSpec(''));
      limiter.reset();
    },
  };

  const listener = createListener({
    services,
    keys: new KeyRing(fixture),
    limiter,
    router: new Router(apiRoutes),
    log,
    chaos,
    loopbackBind: () => isLoopbackAddress(address().address),
    control: (exchange) => handleControl(control, exchange),
    storage: (exchange) => handleStorage(services, exchange),
  });
  server.on('request', listener);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  services.origin = originOf(address());

  let closing: Promise<void> | undefined;
  return {
    origin: services.origin,
    controlToken,
    baseUrl: `${services.origin}${API_PREFIX}`,
    close() {
      closing ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeAllConnections();
        await closed;
        await shared?.close();
        await storage.close();
      })();
      return closing;
    },
  };
}
