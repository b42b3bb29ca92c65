import type { WordsRule } from '../config/house-rule-types.js';
import type { RulePost, RuleTarget, RuleViolation } from './rule-input.js';
import { ruleCode } from './rule-scope.js';

/**
 * A word or phrase as a pattern: any case, spaces matching any run of white space, and not
 * inside a longer word (no letter, digit or `_` right before or after). `#ad` is found in
 * "Paid partner #ad", not in "#adventure".
 */
export function wordPattern(word: string): RegExp {
  const body = word
    .trim()
    .split(/\s+/)
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('\\s+');
  return new RegExp(`(?<![\\p{L}\\p{N}_])${body}(?![\\p{L}\\p{N}_])`, 'giu');
}

/**
 * Banned words found, and required words missing, in each text of the post's targets in the
 * rule's scope. Targets with the same text (the shared body) are reported once, together.
 * `patterns` are the rule's words as `wordPattern`s, in order (made once per run, not per post).
 */
export function checkWords(post: RulePost, rule: WordsRule, targets: readonly RuleTarget[], patterns: readonly RegExp[]): RuleViolation[] {
  const byText = new Map<string, RuleTarget[]>();
  for (const target of targets) byText.set(target.text, [...(byText.get(target.text) ?? []), target]);
  const violations: RuleViolation[] = [];
  for (const [text, group] of byText) {
    const first = group[0]!;
    const where = `the text for ${group.map((target) => target.label).join(', ')}`;
    const condition = rule.scope.when === null ? '' : ` (${Object.entries(rule.scope.when).map(([option, value]) => `${option} is ${String(value)}`).join(', ')})`;
    for (const [index, word] of rule.words.entries()) {
      // matchAll works on a copy of the pattern: the shared one keeps its lastIndex.
      const matches = [...text.matchAll(patterns[index]!)];
      const base = { severity: rule.severity, code: ruleCode(rule), rule: rule.name, key: post.key, file: post.file, ...(group.length === 1 ? { accountId: first.accountId } : {}) };
      if (rule.kind === 'bannedWords' && matches.length > 0) {
        const at = matches[0]!.index;
        violations.push({
          ...base,
          ...(first.locate?.(at) ?? first.at),
          message: `rule \`${rule.name}\`: \`${word}\` is a banned word, in ${where}`,
          expected: `no ${word.includes(' ') ? 'phrase' : 'word'} \`${word}\``,
          found: `\`${matches[0]![0]}\`${matches.length > 1 ? ` (${matches.length} times)` : ''}`,
          hint: `Reword the text without \`${word}\`.`,
        });
      } else if (rule.kind === 'requiredWords' && matches.length === 0) {
        violations.push({
          ...base,
          ...(first.locate?.(0) ?? first.at),
          message: `rule \`${rule.name}\`: \`${word}\` is missing from ${where}${condition}`,
          expected: `the ${word.includes(' ') ? 'phrase' : 'word'} \`${word}\` in the text (any case)`,
          found: 'a text without it',
          hint: `Add \`${word}\` to the text.`,
        });
      }
    }
  }
  return violations;
}
