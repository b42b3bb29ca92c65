import { out } from '../output.js';
import type { Command } from 'commander';
import { readAccounts } from '../../src/reports/read-accounts.js';
import { globalOptions, openProject } from '../context.js';
import { summarizeCapabilities } from '../views/capabilities.js';
import { accountsReport, renderAccounts } from '../views/accounts.js';
import { term, terminalJson } from '../../src/text/terminal.js';

export interface AccountsFlags {
  json?: boolean;
}

/** Lists the project's accounts with their aliases and a summary of their rules. */
export async function runAccounts(flags: AccountsFlags, command: Command): Promise<number> {
  const { config, connection, style } = await openProject(globalOptions(command));
  try {
    const { accounts, unknownAliases } = await readAccounts({ config, connection });
    const views = accounts.map(({ account, aliases, capabilities, capabilitiesError }) => ({ account, aliases, capabilities: capabilities === null ? null : summarizeCapabilities(capabilities), capabilitiesError }));
    const view = { target: connection.project, accounts: views, unknownAliases };
    if (flags.json) out.write(terminalJson(accountsReport(view)));
    else out.write(term`${renderAccounts(view, { label: connection.label, style })}\n`);
    return 0;
  } finally {
    await connection.close();
  }
}
