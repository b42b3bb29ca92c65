import { ApiError } from '../api/index.js';
import type { AnalyticsItem, AnalyticsQuery } from '../api/types.js';
import type { Config } from '../config/types.js';
import { parseScheduledAt } from '../zoned-time/scheduled-at.js';
import { resolveAccount } from '../config/account-ids.js';
import { InputError } from '../errors.js';
import type { Connection } from '../pipeline/connect.js';
import { readState, sectionFor } from '../state/state-file.js';
import type { ProjectState } from '../state/types.js';
import { didYouMean } from '../text/did-you-mean.js';

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const FORMATS_TEXT = '`2026-12-01`, `2026-12-01 09:00` or `2026-12-01T09:00:00+01:00`';

/** Which analytics to read, as the flags give them. */
export interface AnalyticsFilters {
  from?: string;
  to?: string;
  /** An alias from postsync.yaml or an account uuid. */
  account?: string;
  platform?: string;
}

/** The analytics items, with what joins them to the files: the state section and a name per account. */
export interface AnalyticsData {
  query: AnalyticsQuery;
  items: AnalyticsItem[];
  section: ProjectState;
  /** Alias from postsync.yaml, else the handle, else the id, by the item's socialAccountId. */
  accountNames: Map<string, string>;
}

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

/** `postsync analytics`: the items the filters select, the state and the account names to join them with. */
export async function readAnalytics(input: { config: Config; connection: Pick<Connection, 'client' | 'project'>; filters: AnalyticsFilters }): Promise<AnalyticsData> {
  const { config, connection, filters } = input;
  const query: AnalyticsQuery = {};
  if (filters.from !== undefined) query.from = rangeBound('--from', filters.from, config.timezone);
  if (filters.to !== undefined) query.to = rangeBound('--to', filters.to, config.timezone);
  if (filters.account !== undefined) query.accountId = accountId(filters.account, config);
  if (filters.platform !== undefined) query.platform = filters.platform;
  if (query.from && query.to && Date.parse(query.from) >= Date.parse(query.to)) {
    throw new InputError(`--from (${query.from}) is not before --to (${query.to})`, { hint: 'Swap them, or widen the range.' });
  }
  const [state, items] = await Promise.all([readState(config.statePath), collect(connection.client.analytics(query))]);
  const accountNames = await accountNamesOf(config, items, connection.client);
  return { query, items, section: sectionFor(state, connection.project), accountNames };
}

function accountId(value: string, config: Config): string {
  const id = resolveAccount(value, config.accounts);
  if (id !== undefined) return id;
  const aliases = Object.keys(config.accounts);
  throw new InputError(`--account "${value}" is neither an alias from postsync.yaml nor an account uuid`, {
    hint: didYouMean(value, aliases) ?? (aliases.length > 0 ? `Aliases: ${aliases.join(', ')}. \`postsync accounts\` lists the uuids.` : '`postsync accounts` lists the account uuids.'),
  });
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

/** Alias per account id; handles (one account listing) only when some account has no alias. */
async function accountNamesOf(config: Config, items: readonly AnalyticsItem[], client: { accounts(): Promise<{ id: string; handle: string }[]> }): Promise<Map<string, string>> {
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
