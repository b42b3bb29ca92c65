import { join } from 'node:path';
import { ApiClient } from '../api/index.js';
import type { ClientEvent } from '../api/index.js';
import type { Session } from '../api/types.js';
import { keyDestinationRefusal } from '../config/key-destination.js';
import type { Config } from '../config/types.js';
import { InputError } from '../errors.js';
import type { RemoteProject } from '../plan/types.js';
import { calendarIdentity, StateSeal } from '../state/seal.js';
import { stateSectionId } from '../state/state-file.js';
import { terminalText } from '../text/terminal.js';
import { guardWrite } from '../write-guard/guard-write.js';

/** Folder (under the project root) where the embedded local API keeps its data between runs. */
export const LOCAL_API_DIR = '.postsync/local-api';

/**
 * The embedded local API serves the demo fixture, so it is always called with the demo key:
 * a POSTSYNC_API_KEY in the environment belongs to a real project and means nothing there.
 */
const LOCAL_API_KEY = 'demo-key';

/**
 * An open connection to the API a run talks to: the embedded local API (started in-process, on
 * loopback, persisted in `.postsync/local-api/`) or a remote one. Close it when done.
 */
export interface Connection {
  client: ApiClient;
  session: Session;
  project: RemoteProject;
  /** Seals the state records this calendar writes for this project, and confirms those it reads. */
  seal: StateSeal;
  /** One line naming the remote project (`Target: …`), printed first by every plan. */
  label: string;
  close(): Promise<void>;
}

export interface ConnectOptions {
  /**
   * True under CI (`isCiEnvironment`): the embedded API must then be asked for with `--local`,
   * and the key goes only where `keyDestinationRefusal` allows.
   */
  ci: boolean;
  onClientEvent?: (event: ClientEvent) => void;
}

export async function connect(config: Config, options: ConnectOptions): Promise<Connection> {
  if (config.api.url === null) return connectLocal(config, options);
  const key = config.api.key;
  if (!key) {
    throw new InputError(`No API key for ${config.api.url}.`, {
      hint: 'Set POSTSYNC_API_KEY to a key of your project (in GitHub Actions: a repository secret).',
    });
  }
  const refusal = keyDestinationRefusal(config.api, options);
  if (refusal !== undefined) throw refusal;
  const url = config.api.url;
  const client = new ApiClient({ baseUrl: url, apiKey: key, onEvent: options.onClientEvent, ...deadlineOf(config) });
  return openSession(client, { apiUrl: url, apiKey: key, root: config.root, local: false, close: () => client.close(), label: (project) => `Target: ${terminalText(url)} (project ${terminalText(project)})` });
}

async function connectLocal(config: Config, options: ConnectOptions): Promise<Connection> {
  if (options.ci && !config.api.local) {
    throw new InputError('No API URL is configured, and under CI postsync does not fall back to the local API.', {
      hint: 'Set POSTSYNC_API_URL (and POSTSYNC_API_KEY) from your secrets, or pass --local to use the embedded local API on purpose.',
    });
  }
  // Loaded lazily: remote runs never pay for the emulator's modules.
  const { startEmulator } = await import('../emulator/index.js');
  const dataDir = join(config.root, LOCAL_API_DIR);
  // What the local API writes at names known in advance (its objects get fresh random names): a
  // link there, or on the way from the project root, is refused before it starts, never followed.
  for (const name of ['journal.jsonl', 'journal.jsonl.compact.tmp', 'objects', 'lock']) await guardWrite(join(dataDir, name), { root: config.root });
  const emulator = await startEmulator({ host: '127.0.0.1', port: 0, dataDir });
  const client = new ApiClient({ baseUrl: emulator.baseUrl, apiKey: LOCAL_API_KEY, onEvent: options.onClientEvent, ...deadlineOf(config) });
  const close = async () => {
    await client.close();
    await emulator.close();
  };
  // The local API's URL (an ephemeral port) is not part of its identity in state.
  return openSession(client, { apiUrl: 'local', apiKey: LOCAL_API_KEY, root: config.root, local: true, close, label: (project) => `Target: local API (embedded, ${LOCAL_API_DIR}/, project ${terminalText(project)})` });
}

/** POSTSYNC_API_TIMEOUT_MS for the client, when set. */
function deadlineOf(config: Config): { deadlineMs?: number } {
  return config.api.deadlineMs === null ? {} : { deadlineMs: config.api.deadlineMs };
}

/** Reads the session (which names the project), then builds the remote project and its seal; closes everything if that fails. */
async function openSession(
  client: ApiClient,
  options: { apiUrl: string; apiKey: string; root: string; local: boolean; close: () => Promise<void>; label: (projectId: string) => string },
): Promise<Connection> {
  try {
    const session = await client.session();
    const projectId = session.project.id;
    const project: RemoteProject = { id: stateSectionId({ apiUrl: options.apiUrl, projectId, local: options.local }), apiUrl: options.apiUrl, projectId, local: options.local };
    // A session that lists its permissions without posts-write is a read-only key's (see SealScope.checks).
    const checks = session.permissions.length === 0 || session.permissions.includes('posts-write');
    const seal = new StateSeal({ apiKey: options.apiKey, targetId: project.id, calendar: calendarIdentity(options.root), checks });
    const label = checks ? options.label(projectId) : `${options.label(projectId)}; state seals not checked (a read-only key: apply checks them)`;
    return { client, session, project, seal, label, close: options.close };
  } catch (error) {
    await options.close();
    throw error;
  }
}
