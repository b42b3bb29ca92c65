import type { HouseRule } from '../config/house-rule-types.js';
import { compareText } from '../text/ordering.js';
import { checkImageAlt } from './alt-rule.js';
import { checkSchedule } from './check-schedule.js';
import type { HouseRulesInput, HouseRulesResult, RulePost, RuleViolation, TextRewrite } from './rule-input.js';
import { appliesTo } from './rule-scope.js';
import { checkUtm } from './utm-rule.js';
import { checkWords, wordPattern } from './word-rules.js';

/**
 * Every house rule over every post: the schedule rules across posts and accounts, the text and
 * media rules post by post. Pure: the same input gives the same violations in the same order.
 */
export function checkHouseRules(input: HouseRulesInput): HouseRulesResult {
  const labels = new Map<string, string>();
  for (const post of input.posts) for (const target of post.targets) if (!labels.has(target.accountId)) labels.set(target.accountId, target.label);
  const label = (accountId: string) => labels.get(accountId) ?? accountId;
  const violations = checkSchedule(input, label);
  const rewrites: TextRewrite[] = [];
  const patterns = new Map(input.rules.flatMap((rule) => (rule.kind === 'bannedWords' || rule.kind === 'requiredWords' ? [[rule, rule.words.map(wordPattern)] as const] : [])));
  for (const post of input.posts) {
    for (const rule of input.rules) {
      const found = checkPostContent(post, rule, { ...input, patterns });
      violations.push(...found.violations);
      rewrites.push(...found.rewrites);
    }
  }
  return { violations: sortViolations(violations), rewrites };
}

function checkPostContent(post: RulePost, rule: HouseRule, input: HouseRulesInput & { patterns: ReadonlyMap<HouseRule, readonly RegExp[]> }): { violations: RuleViolation[]; rewrites: TextRewrite[] } {
  const targets = post.targets.filter((target) => appliesTo(rule, target.accountId, { accounts: input.accounts, options: target.options }));
  switch (rule.kind) {
    case 'bannedWords':
    case 'requiredWords':
      return { violations: checkWords(post, rule, targets, input.patterns.get(rule)!), rewrites: [] };
    case 'imageAlt':
      // Media are shared by the targets: checked once when any target is in scope (or the post has none yet).
      return { violations: targets.length > 0 || (post.targets.length === 0 && Object.values(rule.scope).every((restriction) => restriction === null)) ? checkImageAlt(post, rule) : [], rewrites: [] };
    case 'utm': {
      const results = targets.map((target) => checkUtm(post, rule, target, input));
      return { violations: results.flatMap((r) => r.violations), rewrites: results.flatMap((r) => r.rewrites) };
    }
    default:
      return { violations: [], rewrites: [] };
  }
}

function sortViolations(violations: RuleViolation[]): RuleViolation[] {
  return violations.sort((a, b) => compareText(a.file ?? '', b.file ?? '') || (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0) || compareText(a.key, b.key) || compareText(a.rule, b.rule) || compareText(a.message, b.message));
}
