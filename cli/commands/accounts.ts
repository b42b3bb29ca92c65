import type { Command } from 'commander';
import pLimit from 'p-limit';
import { ApiError } from '../../src/api/index.js';
import { globalOptions, openTarget } from '../context.js';
import { summarizeCapabilities } from '../views/capabilities.js';
import { accountsReport, renderAccounts, type AccountView } from '../views/accounts.js';

export interface AccountsFlags {
  json?: boolean;
}

/** Capability reads in flight at once. */
const CAPABILITY_CONCURRENCY = 4;

/**
 * Lists the project's accounts with their aliases and a summary of their rules. Requests: the
 * account listing and one capabilities read per account. A capabilities read the service refuses
 * (e.g. 404, 403) is shown on that account; the others are still listed.
 */
export async function runAccounts(flags: AccountsFlags, command: Command): Promise<number> {
  const { config, connection, style } = await openTarget(globalOptions(command));
  try {
    const accounts = await connection.client.accounts();
    const aliasesById = new Map<string, string[]>();
    for (const [alias, id] of Object.entries(config.accounts)) aliasesById.set(id, [...(aliasesById.get(id) ?? []), alias]);
    const limit = pLimit(CAPABILITY_CONCURRENCY);
    const views = await Promise.all(
      accounts.map((account) =>
        limit(async (): Promise<AccountView> => {
          const aliases = aliasesById.get(account.id.toLowerCase()) ?? [];
          try {
            return { account, aliases, capabilities: summarizeCapabilities(await connection.client.capabilities(account.id)), capabilitiesError: null };
          } catch (error) {
            if (!(error instanceof ApiError)) throw error;
            return { account, aliases, capabilities: null, capabilitiesError: error.message };
          }
        }),
      ),
    );
    const known = new Set(accounts.map((account) => account.id.toLowerCase()));
    const unknownAliases = Object.entries(config.accounts).filter(([, id]) => !known.has(id)).map(([alias, id]) => ({ alias, id }));
    const view = { target: connection.target, accounts: views, unknownAliases };
    if (flags.json) process.stdout.write(`${JSON.stringify(accountsReport(view), null, 2)}\n`);
    else process.stdout.write(`${renderAccounts(view, { label: connection.label, style })}\n`);
    return 0;
  } finally {
    await connection.close();
  }
}
