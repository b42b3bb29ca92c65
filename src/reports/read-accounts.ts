import pLimit from 'p-limit';
import { ApiError, ResponseShapeError } from '../api/index.js';
import type { Account, Capabilities } from '../api/types.js';
import type { Config } from '../config/types.js';
import type { Connection } from '../pipeline/connect.js';

/** Capability reads in flight at once. */
const CAPABILITY_CONCURRENCY = 4;

/** One account of the project with its aliases from postsync.yaml and its rules, or why they could not be read. */
export interface AccountOverview {
  account: Account;
  aliases: string[];
  capabilities: Capabilities | null;
  capabilitiesError: string | null;
}

/**
 * `postsync accounts`: the project's accounts with their aliases and rules, and the aliases whose
 * uuid is no account of the project. Requests: the account listing and one capabilities read per
 * account. A capabilities read the service refuses (e.g. 404, 403), or answers in a shape postsync
 * cannot read, is kept on that account; the others are still listed.
 */
export async function readAccounts(input: { config: Pick<Config, 'accounts'>; connection: Pick<Connection, 'client'> }): Promise<{ accounts: AccountOverview[]; unknownAliases: { alias: string; id: string }[] }> {
  const { config, connection } = input;
  const accounts = await connection.client.accounts();
  const aliasesById = new Map<string, string[]>();
  for (const [alias, id] of Object.entries(config.accounts)) aliasesById.set(id, [...(aliasesById.get(id) ?? []), alias]);
  const limit = pLimit(CAPABILITY_CONCURRENCY);
  const overviews = await Promise.all(
    accounts.map((account) =>
      limit(async (): Promise<AccountOverview> => {
        const aliases = aliasesById.get(account.id.toLowerCase()) ?? [];
        try {
          return { account, aliases, capabilities: await connection.client.capabilities(account.id), capabilitiesError: null };
        } catch (error) {
          // Refused, or answered in a shape postsync cannot read (empty rules of an unused account): that account's one line, the others still listed.
          if (!(error instanceof ApiError) && !(error instanceof ResponseShapeError)) throw error;
          return { account, aliases, capabilities: null, capabilitiesError: error.message };
        }
      }),
    ),
  );
  const known = new Set(accounts.map((account) => account.id.toLowerCase()));
  const unknownAliases = Object.entries(config.accounts).filter(([, id]) => !known.has(id)).map(([alias, id]) => ({ alias, id }));
  return { accounts: overviews, unknownAliases };
}
