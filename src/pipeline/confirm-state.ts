import { ApiError } from '../api/index.js';
import type { Config } from '../config/types.js';
import { InputError } from '../errors.js';
import { unconfirmedRecords, type SealedKind } from '../state/seal.js';
import { acquireLock } from '../state/lock.js';
import { StateStore } from '../state/state-store.js';
import type { ProjectState } from '../state/types.js';
import { compareText } from '../text/ordering.js';
import type { ForeignOwners } from '../plan/foreign-owners.js';
import type { Connection } from './connect.js';
import { foreignOwners } from './foreign-owners.js';

/** A state record without a valid seal, and what it points at on the remote as read now. */
export interface UnconfirmedRecord {
  kind: SealedKind;
  key: string;
  /** The post id (posts), or the media id (media, uploads); null for a pending create. */
  remoteId: string | null;
  /** The remote post's status; `not found` when the service has no such post; null for media. */
  status: string | null;
  /** The text of the remote post, or of the pending create's payload; null for media. */
  text: string | null;
}

export interface ConfirmStateOptions {
  config: Config;
  connection: Pick<Connection, 'client' | 'project' | 'seal'>;
  /** The keys of post records or pending creates to confirm, or every unconfirmed record. */
  select: { keys: string[] } | { all: true };
  /** Shown the records that would be sealed (none: not called); true seals them. */
  approve: (records: UnconfirmedRecord[]) => Promise<boolean>;
}

export type ConfirmStateOutcome = { kind: 'nothing' | 'declined' | 'confirmed'; records: UnconfirmedRecord[] };

/**
 * `postsync state confirm`: under the state lock, the records chosen that carry no valid seal are
 * read against the remote and shown; approved, each is sealed as it is, so plans act on it again.
 * It is how a state written before seals, or sealed with a rotated API key, is taken over: a
 * person who holds the key vouches for what each record points at. A key named that is not a
 * post record or pending create of the state is an InputError, before anything is read.
 */
export async function confirmState(options: ConfirmStateOptions): Promise<ConfirmStateOutcome> {
  const { config, connection } = options;
  const release = await acquireLock(config.statePath, { command: 'state confirm', root: config.root, timezone: config.timezone });
  try {
    const store = await StateStore.open(config.statePath, connection.project, { seal: connection.seal, root: config.root });
    const chosen = chooseRecords(store.section, unconfirmedRecords(store.section, connection.seal), options.select, config.statePath);
    if (chosen.length === 0) return { kind: 'nothing', records: [] };
    refuseForeign(chosen, store.section, await foreignOwners(config.root, connection.project));
    const records = await Promise.all(chosen.map(([kind, key]) => describeRecord(kind, key, store.section, connection.client)));
    if (!(await options.approve(records))) return { kind: 'declined', records };
    for (const { kind, key } of records) await store.confirm(kind, key);
    await store.checkpoint();
    return { kind: 'confirmed', records };
  } finally {
    await release();
  }
}

/**
 * Refuses (InputError) to seal a post record whose post another calendar of the repository records:
 * sealing it would let this calendar rewrite or delete that calendar's post. Nothing is sealed.
 */
function refuseForeign(chosen: readonly [SealedKind, string][], section: ProjectState, foreign: ForeignOwners): void {
  const taken = chosen.flatMap(([kind, key]) => {
    const postId = kind === 'posts' ? section.posts[key]!.postId : undefined;
    const owner = postId === undefined ? undefined : foreign.get(postId);
    return owner === undefined ? [] : [`"${key}" (post ${postId}) is recorded by the calendar in ${owner}`];
  });
  if (taken.length === 0) return;
  throw new InputError(`postsync seals no record of a post another calendar of this repository records: ${taken.join('; ')}`, {
    hint: 'Such a record was copied from that calendar\'s state: remove it from this state file (that calendar keeps its post). Nothing was sealed.',
  });
}

function chooseRecords(section: ProjectState, unconfirmed: ReturnType<typeof unconfirmedRecords>, select: ConfirmStateOptions['select'], statePath: string): [SealedKind, string][] {
  if ('all' in select) {
    const kinds: SealedKind[] = ['posts', 'pending', 'media', 'uploads'];
    return kinds.flatMap((kind) => [...unconfirmed[kind]].sort(compareText).map((key): [SealedKind, string] => [kind, key]));
  }
  const missing = select.keys.filter((key) => section.posts[key] === undefined && section.pending[key] === undefined);
  if (missing.length > 0) {
    throw new InputError(`${missing.map((key) => `"${key}"`).join(', ')} ${missing.length === 1 ? 'is' : 'are'} not a post key of the state ${statePath} for this target`, {
      hint: 'Name post keys as `postsync plan` shows them, or pass --all to confirm every record without a valid seal.',
    });
  }
  return select.keys.flatMap((key): [SealedKind, string][] => {
    const kind: SealedKind = section.posts[key] !== undefined ? 'posts' : 'pending';
    return unconfirmed[kind].has(key) ? [[kind, key]] : [];
  });
}

async function describeRecord(kind: SealedKind, key: string, section: ProjectState, client: Connection['client']): Promise<UnconfirmedRecord> {
  if (kind === 'pending') return { kind, key, remoteId: null, status: 'create pending', text: section.pending[key]!.payload.content };
  if (kind === 'media' || kind === 'uploads') return { kind, key, remoteId: section[kind][key]!.mediaId, status: null, text: null };
  const postId = section.posts[key]!.postId;
  try {
    const post = await client.getPost(postId);
    return { kind, key, remoteId: postId, status: post.status, text: post.content };
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return { kind, key, remoteId: postId, status: 'not found', text: null };
    throw error;
  }
}
