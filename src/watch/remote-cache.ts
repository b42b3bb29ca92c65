import type { ApiClient } from '../api/index.js';
import { readAccountRules, type AccountRules } from '../pipeline/account-rules.js';
import { listLivePosts, LiveListing } from '../pipeline/live-listing.js';

/**
 * The remote side as last read: every post and the rules of the accounts in use. Saves plan
 * against it; only `refresh` lists the posts again (a new LiveListing each time). An account no
 * post used before costs one capabilities read the first time it appears (an unknown id is
 * remembered as unknown too), so edits never cost a request each.
 */
export class RemoteCache {
  readonly #client: ApiClient;
  #live = new LiveListing([], []);
  #rules: AccountRules = { capabilities: new Map(), unknownAccounts: new Set() };

  constructor(client: ApiClient) {
    this.#client = client;
  }

  get live(): LiveListing {
    return this.#live;
  }

  get rules(): AccountRules {
    return this.#rules;
  }

  /** Lists every post and re-reads the rules of every account seen so far and of `accountIds`. */
  async refresh(accountIds: Iterable<string>): Promise<void> {
    const ids = new Set([...this.#rules.capabilities.keys(), ...this.#rules.unknownAccounts, ...accountIds]);
    const [live, rules] = await Promise.all([listLivePosts(this.#client), readAccountRules(this.#client, ids)]);
    this.#live = live;
    this.#rules = rules;
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
