import type { ApiClient } from '../api/index.js';
import type { AccountFacts } from '../house-rules/index.js';
import type { AccountRules } from './account-rules.js';

/** Reads the project's accounts (GET /accounts) the first time they are asked for, once: their platform and handle, by id. */
export function accountFactsLoader(client: Pick<ApiClient, 'accounts'>): () => Promise<ReadonlyMap<string, AccountFacts>> {
  let loaded: Promise<ReadonlyMap<string, AccountFacts>> | undefined;
  return () => (loaded ??= client.accounts().then((accounts) => new Map(accounts.map((account) => [account.id.toLowerCase(), { platform: account.platform, handle: account.handle }]))));
}

/** The platform of each account whose rules were read, by id: what the schedule rules limited to platforms need. */
export function platformsOf(rules: AccountRules): Map<string, AccountFacts> {
  return new Map([...rules.capabilities].map(([id, capabilities]) => [id, { platform: capabilities.account.platform }]));
}
