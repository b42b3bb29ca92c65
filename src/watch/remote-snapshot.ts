import type { ApiClient } from '../api/index.js';
import { prefetchAccountRules, readAccountRules, type AccountRules } from '../pipeline/account-rules.js';
import { LiveListing } from '../pipeline/live-listing.js';
import { completeScopedListing, listOpenPosts, readFinalPosts, ScopedListing } from '../pipeline/scoped-listing.js';
import type { PostRecord } from '../state/types.js';
import type { ContentResult } from '../content/read-content.js';
import { changedSinceApply } from '../pipeline/build-plan.js';
import { accountIdsOf } from '../pipeline/read-desired.js';

/** The files as read, as much of them as the remote read depends on. */
type ReadContent = Pick<ContentResult, 'posts' | 'checkOnly'>;

/**
 * The remote side as last read: the posts a plan can need, read as `plan` reads them (drafts and
 * scheduled posts listed, other owned posts by id, those recorded final left unread until their
 * file changes), and the rules of the accounts in use. Saves plan against it; only `refresh`
 * lists the posts again. An account no post used before costs one capabilities read the first
 * time it appears (an unknown id is remembered as unknown too), so edits never cost a request each.
 */
export class RemoteSnapshot {
  readonly #client: ApiClient;
  #live = new ScopedListing([new LiveListing([])], new Map(), []);
  #rules: AccountRules = { capabilities: new Map(), unknownAccounts: new Set() };

  constructor(client: ApiClient) {
    this.#client = client;
  }

  get live(): ScopedListing {
    return this.#live;
  }

  get rules(): AccountRules {
    return this.#rules;
  }

  /**
   * Reads again the posts a plan of `content` against `records` can need (an owned post recorded
   * final only when its file changed since the apply), and the rules of every account seen so far
   * and of those `content` uses.
   */
  async refresh(content: ReadContent, records: Readonly<Record<string, PostRecord>>): Promise<void> {
    const ids = new Set([...this.#rules.capabilities.keys(), ...this.#rules.unknownAccounts, ...accountIdsOf(content)]);
    const [listings, rules] = await Promise.all([listOpenPosts(this.#client), readAccountRules(this.#client, ids)]);
    this.#live = await completeScopedListing({ client: this.#client, listings, records, readFinal: changedSinceApply(content) });
    this.#rules = rules;
  }

  /**
   * Before a plan of `content`: reads what it needs and was not read yet, the rules of accounts
   * not seen yet and the owned posts recorded final whose files changed since the apply.
   */
  async prepare(content: ReadContent, records: Readonly<Record<string, PostRecord>>): Promise<void> {
    const [, live] = await Promise.all([this.ensureAccounts(accountIdsOf(content)), readFinalPosts({ client: this.#client, listing: this.#live, records, readFinal: changedSinceApply(content) })]);
    this.#live = live;
  }

  /**
   * Reads ahead the rules of the accounts postsync.yaml names, as `plan` does: the calendar's editor
   * checks media against an account a post does not use yet. One that cannot be read now is left
   * to be read (and reported) when a post uses it.
   */
  async prefetch(accountIds: Iterable<string>): Promise<void> {
    const read = await prefetchAccountRules(this.#client, accountIds);
    for (const [id, capabilities] of read.capabilities) this.#rules.capabilities.set(id, capabilities);
    for (const id of read.unknownAccounts) this.#rules.unknownAccounts.add(id);
  }

  /** Reads the rules of accounts not seen yet; accounts already known are not asked again. */
  async ensureAccounts(accountIds: Iterable<string>): Promise<void> {
    const known = this.#rules;
    const missing = [...new Set(accountIds)].filter((id) => !known.capabilities.has(id) && !known.unknownAccounts.has(id));
    if (missing.length === 0) return;
    const fresh = await readAccountRules(this.#client, missing);
    for (const [id, capabilities] of fresh.capabilities) known.capabilities.set(id, capabilities);
    for (const id of fresh.unknownAccounts) known.unknownAccounts.add(id);
  }
}
