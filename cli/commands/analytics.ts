import type { Command } from 'commander';
import { ApiError } from '../../src/api/index.js';
import type { AnalyticsItem, AnalyticsQuery } from '../../src/api/types.js';
import type { Config } from '../../src/config/types.js';
import { didYouMean } from '../../src/text/did-you-mean.js';
import { parseScheduledAt } from '../../src/content/scheduled-at.js';
import { resolveAccount } from '../../src/content/targets.js';
import { InputError } from '../../src/errors.js';
import { readState, sectionFor } from '../../src/state/store.js';
import { globalOptions, openTarget } from '../context.js';
import { analyticsRows, renderAnalyticsCsv, renderAnalyticsTable, totalsOf, type AnalyticsReport } from '../views/analytics.js';

export type AnalyticsFormat = 'table' | 'csv' | 'json';

export interface AnalyticsFlags {
  from?: string;
  to?: string;
  account?: string;
  platform?: string;
  format?: AnalyticsFormat;
  json?: boolean;
}

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const FORMATS_TEXT = '`2026-12-01`, `2026-12-01 09:00` or `2026-12-01T09:00:00+01:00`';

/**
 * A `--from`/`--to` value as an instant. A date alone means midnight in the project's time zone;
 * for `--to` it means the end of that day, so `--to 2026-12-31` includes the 31st.
 */
export function rangeBound(flag: '--from' | '--to', value: string, timezone: string): string {
  const invalid = () => new InputError(`${flag} "${value}" is not a date or time`, { hint: `Write it as ${FORMATS_TEXT} (without an offset, in ${timezone}).` });
  const date = DATE_ONLY.exec(value.trim());
  let text = value;
  if (date) {
    const day = new Date(Date.UTC(Number(date[1]), Number(date[2]) - 1, Number(date[3])));
    if (day.toISOString().slice(0, 10) !== date[0]) throw invalid();
    if (flag === '--to') day.setUTCDate(day.getUTCDate() + 1);
    text = `${day.toISOString().slice(0, 10)} 00:00`;
  }
  const parsed = parseScheduledAt(text, timezone);
  if (!parsed.ok) throw invalid();
  return parsed.instant;
}

function accountId(value: string, config: Config): string {
  const id = resolveAccount(value, config.accounts);
  if (id !== undefined) return id;
  const aliases = Object.keys(config.accounts);
  throw new InputError(`--account "${value}" is neither an alias from postsync.yaml nor an account uuid`, {
    hint: didYouMean(value, aliases) ?? (aliases.length > 0 ? `Aliases: ${aliases.join(', ')}. \`postsync accounts\` lists the uuids.` : '`postsync accounts` lists the account uuids.'),
  });
}

function outputFormat(flags: AnalyticsFlags): AnalyticsFormat {
  if (flags.json) return 'json';
  return flags.format ?? (process.stdout.isTTY === true ? 'table' : 'csv');
}

/** One row per published post/account pair, joined with file keys through the state. */
export async function runAnalytics(flags: AnalyticsFlags, command: Command): Promise<number> {
  const format = outputFormat(flags);
  const { config, connection, style } = await openTarget(globalOptions(command));
  try {
    const query: AnalyticsQuery = {};
    if (flags.from !== undefined) query.from = rangeBound('--from', flags.from, config.timezone);
    if (flags.to !== undefined) query.to = rangeBound('--to', flags.to, config.timezone);
    if (flags.account !== undefined) query.accountId = accountId(flags.account, config);
    if (flags.platform !== undefined) query.platform = flags.platform;
    if (query.from && query.to && Date.parse(query.from) >= Date.parse(query.to)) {
      throw new InputError(`--from (${query.from}) is not before --to (${query.to})`, { hint: 'Swap them, or widen the range.' });
    }
    const [state, items] = await Promise.all([readState(config.statePath), collect(connection.client.analytics(query))]);
    const names = await accountNames(config, items, connection.client);
    const rows = analyticsRows(items, sectionFor(state, connection.target), (id) => names.get(id));
    const report: AnalyticsReport = {
      formatVersion: 1,
      command: 'analytics',
      target: connection.target,
      filters: { from: query.from ?? null, to: query.to ?? null, accountId: query.accountId ?? null, platform: query.platform ?? null },
      rows,
      totals: totalsOf(rows),
    };
    if (format === 'json') process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    else if (format === 'csv') process.stdout.write(renderAnalyticsCsv(report));
    else process.stdout.write(`${renderAnalyticsTable(report, { label: connection.label, style, timezone: config.timezone })}\n`);
    return 0;
  } finally {
    await connection.close();
  }
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

/** Alias per account id; handles (one account listing) only when some account has no alias. */
async function accountNames(config: Config, items: readonly AnalyticsItem[], client: { accounts(): Promise<{ id: string; handle: string }[]> }): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  for (const [alias, id] of Object.entries(config.accounts)) if (!names.has(id)) names.set(id, alias);
  if (items.some((item) => !names.has(item.socialAccountId.toLowerCase()))) {
    // Handles are a nicety: a key without accounts-read still gets its analytics, with account ids.
    const accounts = await client.accounts().catch((error: unknown) => {
      if (error instanceof ApiError) return [];
      throw error;
    });
    for (const account of accounts) if (!names.has(account.id.toLowerCase())) names.set(account.id.toLowerCase(), account.handle);
  }
  return new Map(items.map((item) => [item.socialAccountId, names.get(item.socialAccountId.toLowerCase()) ?? item.socialAccountId]));
}
