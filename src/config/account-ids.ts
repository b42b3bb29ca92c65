export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An account as written (alias or uuid) → its id: alias first (an alias may even look like a uuid), then a raw uuid; ids are compared lower-case. */
export function resolveAccount(account: string, accounts: Readonly<Record<string, string>>): string | undefined {
  if (Object.hasOwn(accounts, account)) return accounts[account]!.toLowerCase();
  return UUID_PATTERN.test(account) ? account.toLowerCase() : undefined;
}
