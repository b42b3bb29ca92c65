import { createHash } from 'node:crypto';
import type { Target } from '../../api/types.js';
import type { FixtureHistory } from '../fixture/fixture.js';
import type { AccountRecord, StoredPost } from '../store/model.js';
import type { SortKey } from '../store/post-index.js';
import type { Project } from '../store/store.js';
import { targetFor } from '../rules/targets.js';

const HOUR_MS = 60 * 60 * 1000;

/** Defaults of a history batch; see `FixtureHistory` and schemas/fixture.schema.json. */
export const HISTORY_DEFAULTS = {
  status: 'published',
  createdFrom: '2020-01-01T00:00:00Z',
  everySeconds: 600,
  scheduledFrom: '2035-01-01T00:00:00Z',
  content: 'History post',
} as const;

/**
 * Ids of batch `batch` of a project: a fixed prefix from the project and batch, then the post's
 * number, so ids are the same on every start and never collide between batches.
 */
function idMaker(projectId: string, batch: number): (i: number) => string {
  const h = createHash('sha256').update(`postsync-history/${projectId}/${batch}`).digest('hex');
  const prefix = `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(12, 15)}-8${h.slice(15, 18)}`;
  return (i) => `${prefix}-${i.toString(16).padStart(12, '0')}`;
}

/**
 * Makes the target of a history post on `account`: a post in a final status gets its own target
 * (its own external id and time), any other status shares one frozen target per account (stored
 * posts are replaced, never edited in place), which keeps 100,000 posts cheap to make and to hold.
 */
function targetMaker(account: AccountRecord, status: string): (id: string, atIso: string) => Target {
  const base = targetFor(account, { socialAccountId: account.id });
  Object.freeze(base.options);
  if (status === 'published') {
    const { socialAccountId, platform, handle, options } = base;
    const prefix = `${platform}_history_`;
    return (id, atIso) => ({ socialAccountId, platform, handle, options, status: 'published', externalPostId: prefix + id.slice(-12), publishedAt: atIso });
  }
  const shared = Object.freeze(status === 'failed' ? { ...base, status: 'failed', error: `${account.platform} rejected the post for ${account.handle} (fixture history)` } : base);
  return () => shared;
}

/**
 * The posts of a project's fixture `history`, with their sort keys (no dates to parse back),
 * generated without reading a post from the fixture:
 * batch by batch, in creation order, `everySeconds` apart from `createdFrom`, one target each on
 * the given accounts in turn (default: all of the project's). By status:
 * - `published`: scheduled and published an hour after creation; targets published.
 * - `failed`: the same, its targets failed.
 * - `draft`: no schedule; targets pending.
 * - `scheduled`: scheduled `everySeconds` apart from `scheduledFrom`; the publisher takes them when due.
 * - any other (including statuses the emulator never gives, as the spec's list is open): kept as
 *   given, scheduled an hour after creation, targets pending; the publisher leaves them alone.
 */
export function* historyPosts(project: Project, batches: readonly FixtureHistory[]): Generator<{ post: StoredPost; key: SortKey }> {
  for (const [batch, history] of batches.entries()) {
    const status = history.status ?? HISTORY_DEFAULTS.status;
    const stepMs = (history.everySeconds ?? HISTORY_DEFAULTS.everySeconds) * 1000;
    const createdFromMs = Date.parse(history.createdFrom ?? HISTORY_DEFAULTS.createdFrom);
    const scheduledFromMs = Date.parse(history.scheduledFrom ?? HISTORY_DEFAULTS.scheduledFrom);
    const accounts = history.accounts ? history.accounts.map((id) => project.account(id) as AccountRecord) : [...project.accountList];
    const makers = accounts.map((account) => targetMaker(account, status));
    const content = history.content ?? HISTORY_DEFAULTS.content;
    const idOf = idMaker(project.id, batch);
    const final = status === 'published' || status === 'failed';
    for (let i = 0; i < history.posts; i++) {
      const id = idOf(i);
      const createdMs = createdFromMs + i * stepMs;
      const scheduledMs = status === 'draft' ? null : status === 'scheduled' ? scheduledFromMs + i * stepMs : createdMs + HOUR_MS;
      const createdAt = new Date(createdMs).toISOString();
      const scheduledAt = scheduledMs === null ? null : new Date(scheduledMs).toISOString();
      const maker = makers.length > 0 ? makers[i % makers.length] : undefined;
      const post: StoredPost = {
        id,
        status,
        content: `${content} ${i + 1}`,
        scheduledAt,
        createdAt,
        updatedAt: final ? (scheduledAt as string) : createdAt,
        targets: maker ? [maker(id, scheduledAt ?? createdAt)] : [],
        mediaIds: [],
      };
      if (status === 'published') post.publishedAt = scheduledAt as string;
      yield { post, key: { id, createdMs, scheduledMs } };
    }
  }
}
