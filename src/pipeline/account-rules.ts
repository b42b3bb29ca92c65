import pLimit from 'p-limit';
import { ApiError } from '../api/index.js';
import type { ApiClient } from '../api/index.js';
import type { Capabilities } from '../api/types.js';

/** Capability reads in flight at once: few accounts, and each is one small GET. */
const CAPABILITY_CONCURRENCY = 4;

/** The rules of the accounts in use; ids the project does not know (404) are returned apart. */
export interface AccountRules {
  capabilities: Map<string, Capabilities>;
  unknownAccounts: Set<string>;
}

export async function readAccountRules(client: ApiClient, accountIds: Iterable<string>, options: { known?: AccountRules } = {}): Promise<AccountRules> {
  const limit = pLimit(CAPABILITY_CONCURRENCY);
  const rules: AccountRules = { capabilities: new Map(), unknownAccounts: new Set() };
  const { known } = options;
  await Promise.all(
    [...new Set(accountIds)].map((id) => {
      const capabilities = known?.capabilities.get(id);
      if (capabilities !== undefined) return rules.capabilities.set(id, capabilities);
      if (known?.unknownAccounts.has(id) === true) return rules.unknownAccounts.add(id);
      return limit(async () => {
        try {
          rules.capabilities.set(id, await client.capabilities(id));
        } catch (error) {
          if (error instanceof ApiError && error.status === 404) rules.unknownAccounts.add(id);
          else throw error;
        }
      });
    }),
  );
  return rules;
}

/**
 * The rules of accounts likely in use (the ones postsync.yaml names), read ahead while the files
 * are read; an account whose rules cannot be read now is left out, to be read (and reported)
 * when a post turns out to use it.
 */
export async function prefetchAccountRules(client: ApiClient, accountIds: Iterable<string>): Promise<AccountRules> {
  const rules: AccountRules = { capabilities: new Map(), unknownAccounts: new Set() };
  await Promise.all(
    [...new Set(accountIds)].map(async (id) => {
      const read = await readAccountRules(client, [id]).catch(() => undefined);
      for (const [known, capabilities] of read?.capabilities ?? []) rules.capabilities.set(known, capabilities);
      for (const unknown of read?.unknownAccounts ?? []) rules.unknownAccounts.add(unknown);
    }),
  );
  return rules;
}
