import type { Config } from '../../src/config/types.js';

/** Account id → its alias in postsync.yaml (the first alias, when one account has several), to name accounts in views. */
export function accountAliases(config: Pick<Config, 'accounts'>): ReadonlyMap<string, string> {
  const aliases = new Map<string, string>();
  for (const [alias, id] of Object.entries(config.accounts)) if (!aliases.has(id)) aliases.set(id, alias);
  return aliases;
}
