import type { Account } from '../../src/api/types.js';
import type { RemoteProject } from '../../src/plan/types.js';
import { capabilityLines, type CapabilitySummary } from './capabilities.js';
import type { Style } from './style.js';
import { renderTable } from './table.js';
import { joinTerminal, term, type Terminal } from '../../src/text/terminal.js';

/** One account with its aliases from postsync.yaml and its rules (or why they could not be read). */
export interface AccountView {
  account: Account;
  aliases: string[];
  capabilities: CapabilitySummary | null;
  capabilitiesError: string | null;
}

export interface AccountsView {
  target: RemoteProject;
  accounts: AccountView[];
  /** Aliases in postsync.yaml whose uuid is not an account of this project. */
  unknownAliases: { alias: string; id: string }[];
}

function posting(view: AccountView, style: Style): Terminal {
  const { capabilities } = view;
  if (!capabilities) return style.red(term`rules unreadable`);
  if (!capabilities.supported) return style.red(term`unsupported${capabilities.reason ? term`: ${capabilities.reason}` : ''}`);
  if (!capabilities.available) return style.red(term`unavailable${capabilities.reason ? term`: ${capabilities.reason}` : ''}`);
  return style.green(term`available`);
}

export function renderAccounts(view: AccountsView, options: { label: string; style: Style }): Terminal {
  const { style } = options;
  const blank = term``;
  const out = [term`${options.label}`, blank];
  if (view.accounts.length === 0) out.push(term`This project has no connected accounts.`);
  else {
    const rows = view.accounts.map((item) => [item.aliases.join(', ') === '' ? style.dim(term`-`) : term`${item.aliases.join(', ')}`, term`${item.account.id}`, term`${item.account.platform}`, term`${item.account.handle}`, term`${item.account.status}`, posting(item, style)]);
    out.push(renderTable([{ header: 'ALIAS' }, { header: 'ACCOUNT ID' }, { header: 'PLATFORM' }, { header: 'HANDLE' }, { header: 'STATUS' }, { header: 'POSTING' }], rows, { style }));
  }
  for (const item of view.accounts) {
    const name = term`${item.aliases[0] ?? item.account.id}`;
    out.push(blank, term`${style.bold(name)} ${style.dim(term`(${`${item.account.platform} ${item.account.handle}${item.aliases.length > 0 ? `, ${item.account.id}` : ''}`})`)}`);
    if (!item.capabilities) {
      out.push(term`  ${style.red(term`rules could not be read: ${item.capabilitiesError ?? 'unknown error'}`)}`);
      continue;
    }
    for (const [label, text] of capabilityLines(item.capabilities)) out.push(term`  ${style.dim(term`${label.padEnd(13)}`)}${text}`);
  }
  if (view.unknownAliases.length > 0) {
    out.push(blank);
    for (const { alias, id } of view.unknownAliases) out.push(style.yellow(term`warning: the alias \`${alias}\` in postsync.yaml points at ${id}, which is not an account of this project`));
  }
  return joinTerminal(out, '\n');
}

export function accountsReport(view: AccountsView) {
  return {
    formatVersion: 1 as const,
    command: 'accounts' as const,
    target: view.target,
    accounts: view.accounts.map((item) => ({
      ...item.account,
      aliases: item.aliases,
      capabilities: item.capabilities,
      ...(item.capabilitiesError !== null ? { capabilitiesError: item.capabilitiesError } : {}),
    })),
    unknownAliases: view.unknownAliases,
  };
}
