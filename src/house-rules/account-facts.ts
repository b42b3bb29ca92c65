import { SCHEDULE_RULE_KINDS, UTM_SHORTHANDS, type HouseRule } from '../config/house-rule-types.js';

/**
 * Whether the text and media rules look at what the API says about an account: a rule limited
 * to platforms, or UTM values with the platform or the handle (`{platform}`, `{account.handle}`).
 * Such rules need the accounts' facts before any post can be checked.
 */
export function needsAccountFacts(rules: readonly HouseRule[]): boolean {
  const factNames = new Set(['account.platform', 'account.handle', ...Object.entries(UTM_SHORTHANDS).filter(([, name]) => name !== 'account.alias').map(([short]) => short)]);
  return rules.some((rule) => {
    if (SCHEDULE_RULE_KINDS.has(rule.kind)) return false;
    if (rule.scope.platforms !== null) return true;
    return rule.kind === 'utm' && Object.values(rule.params).some((value) => [...value.matchAll(/\{\s*([^{}]*?)\s*\}/g)].some((match) => factNames.has(match[1]!)));
  });
}
