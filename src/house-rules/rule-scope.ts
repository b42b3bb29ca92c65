import type { HouseRule } from '../config/house-rule-types.js';
import type { AccountFacts } from './rule-input.js';

/** Whether `rule` looks at a post on this account (and, for `when`, with these options). */
export function appliesTo(rule: HouseRule, accountId: string, facts: { accounts?: ReadonlyMap<string, AccountFacts>; options?: Readonly<Record<string, unknown>> }): boolean {
  const { accounts, platforms, when } = rule.scope;
  if (accounts !== null && !accounts.includes(accountId)) return false;
  if (platforms !== null) {
    const platform = facts.accounts?.get(accountId)?.platform;
    if (platform === undefined || !platforms.includes(platform)) return false;
  }
  if (when !== null) return Object.entries(when).every(([option, value]) => facts.options?.[option] === value);
  return true;
}

/** `rule-quiet-hours` for `quietHours`. */
export function ruleCode(rule: HouseRule): string {
  return `rule-${rule.kind.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`;
}
