import type { Account } from '../../src/api/types.js';
import type { RemoteProject } from '../../src/plan/types.js';
import { capabilityLines, type CapabilitySummary } from './capabilities.js';
import type { Style } from './style.js';
import { renderTable } from './table.js';
import { terminalText } from '../../src/text/terminal.js';

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

function posting(view: AccountView, style: Style): string {
  const { capabilities } = view;
  if (!capabilities) return style.red('rules unreadable');
  if (!capabilities.supported) return style.red(`unsupported${capabilities.reason ? `: ${terminalText(capabilities.reason)}` : ''}`);
  if (!capabilities.available) return style.red(`unavailable${capabilities.reason ? `: ${terminalText(capabilities.reason)}` : ''}`);
  return style.green('available');
}

export function renderAccounts(view: AccountsView, options: { label: string; style: Style }): string {
  const { style } = options;
  const out = [options.label, ''];
  if (view.accounts.length === 0) out.push('This project has no connected accounts.');
  else {
    const rows = view.accounts.map((item) => [terminalText(item.aliases.join(', ')) || style.dim('-'), terminalText(item.account.id), terminalText(item.account.platform), terminalText(item.account.handle), terminalText(item.account.status), posting(item, style)]);
    out.push(renderTable([{ header: 'ALIAS' }, { header: 'ACCOUNT ID' }, { header: 'PLATFORM' }, { header: 'HANDLE' }, { header: 'STATUS' }, { header: 'POSTING' }], rows, { style }));
  }
  for (const item of view.accounts) {
    const name = terminalText(item.aliases[0] ?? item.account.id);
    out.push('', `${style.bold(name)} ${style.dim(`(${terminalText(`${item.account.platform} ${item.account.handle}${item.aliases.length > 0 ? `, ${item.account.id}` : ''}`)})`)}`);
    if (!item.capabilities) {
      out.push(`  ${style.red(`rules could not be read: ${terminalText(item.capabilitiesError ?? 'unknown error')}`)}`);
      continue;
    }
    for (const [label, text] of capabilityLines(item.capabilities)) out.push(`  ${style.dim(label.padEnd(13))}${terminalText(text)}`);
  }
  if (view.unknownAliases.length > 0) {
    out.push('');
    for (const { alias, id } of view.unknownAliases) out.push(style.yellow(`warning: the alias \`${terminalText(alias)}\` in postsync.yaml points at ${terminalText(id)}, which is not an account of this project`));
  }
  return out.join('\n');
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
