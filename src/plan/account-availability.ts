import type { Capabilities } from '../api/types.js';
import type { AccountAvailability } from './types.js';

/**
 * Whether each account in use can be written to, from its capabilities: an account that is not
 * available or whose platform postsync does not support blocks its posts (with the reason).
 */
export function accountAvailability(capabilities: ReadonlyMap<string, Capabilities>): Map<string, AccountAvailability> {
  const accounts = new Map<string, AccountAvailability>();
  for (const [id, account] of capabilities) accounts.set(id, { available: account.available && account.supported, reason: account.reason });
  return accounts;
}
