import type { UtmRule } from '../config/house-rule-types.js';
import { UTM_SHORTHANDS } from '../config/house-rule-types.js';
import { builtInValues } from '../templates/built-ins.js';
import { renderTemplate } from '../templates/render-template.js';
import type { HouseRulesInput, RulePost, RuleTarget, RuleViolation, TextRewrite } from './rule-input.js';
import { ruleCode } from './rule-scope.js';

/** http(s) links in a text; trailing punctuation and an unmatched `)` are not part of the link. */
export function findLinks(text: string): { link: string; index: number }[] {
  return [...text.matchAll(/\bhttps?:\/\/[^\s<>"'`]+/gi)].map((match) => {
    let link = match[0];
    for (;;) {
      const trimmed = link.replace(/[.,;:!?'"]+$/, '');
      const unmatched = trimmed.endsWith(')') && (trimmed.match(/\(/g)?.length ?? 0) < (trimmed.match(/\)/g)?.length ?? 0);
      const next = unmatched ? trimmed.slice(0, -1) : trimmed;
      if (next === link) break;
      link = next;
    }
    return { link, index: match.index };
  });
}

/** `link` with the parameters added to its query, before any `#fragment`. */
export function withParameters(link: string, parameters: readonly (readonly [string, string])[]): string {
  const hashAt = link.indexOf('#');
  const [base, hash] = hashAt === -1 ? [link, ''] : [link.slice(0, hashAt), link.slice(hashAt)];
  const separator = !base.includes('?') ? '?' : /[?&]$/.test(base) ? '' : '&';
  return `${base}${separator}${parameters.map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join('&')}${hash}`;
}

type Context = Pick<HouseRulesInput, 'accounts' | 'vars' | 'hashtags' | 'timezone'>;

/**
 * The links of one target (its text and its `link` option) against a `utm` rule: with
 * `append`, missing parameters are added and the new text returned; otherwise each link
 * without them (or with another value) is reported. A value that cannot be filled in (`{date}`
 * of a draft) is reported either way.
 */
export function checkUtm(post: RulePost, rule: UtmRule, target: RuleTarget, context: Context): { violations: RuleViolation[]; rewrites: TextRewrite[] } {
  const violations: RuleViolation[] = [];
  const base = { severity: rule.severity, code: ruleCode(rule), rule: rule.name, key: post.key, file: post.file, accountId: target.accountId };
  const wanted = wantedValues(post, rule, target, context);
  if ('problem' in wanted) {
    violations.push({ ...base, ...target.at, message: `rule \`${rule.name}\`: cannot fill in \`${wanted.param}\` for ${target.label}: ${wanted.problem}`, hint: 'Use placeholders this post has values for, or give the rule `accounts` or `platforms` to skip it.' });
    return { violations, rewrites: [] };
  }
  const rewrites: TextRewrite[] = [];
  const fix = (text: string, field: TextRewrite['field'], where: (index: number) => object) => {
    let after = text;
    for (const { link, index } of findLinks(text).reverse()) {
      const parsed = URL.canParse(link) ? new URL(link) : undefined;
      if (parsed === undefined || !inDomains(parsed.hostname, rule.domains)) continue;
      const absent = wanted.values.filter(([name]) => !parsed.searchParams.has(name));
      const differ = wanted.values.filter(([name, value]) => parsed.searchParams.has(name) && value !== '*' && parsed.searchParams.get(name) !== value);
      const appendable = absent.filter(([, value]) => value !== '*');
      if (rule.append && appendable.length > 0) after = after.slice(0, index) + withParameters(link, appendable) + after.slice(index + link.length);
      // With `append`, only what cannot be added is reported: a missing `*` parameter.
      const lacking = rule.append ? absent.filter(([, value]) => value === '*') : absent;
      const other = rule.append ? [] : differ;
      const unreported = [...lacking, ...other];
      if (unreported.length === 0) continue;
      const names = (list: [string, string][]) => list.map(([name]) => name).join(', ');
      violations.push({
        ...base,
        ...where(index),
        message: `rule \`${rule.name}\`: link \`${link}\` ${[lacking.length > 0 ? `lacks ${names(lacking)}` : '', other.length > 0 ? `has other values for ${names(other)}` : ''].filter(Boolean).join(' and ')} (${target.label})`,
        expected: wanted.values.map(([name, value]) => `${name}=${value === '*' ? '<any value>' : value}`).join('&'),
        found: parsed.search === '' ? 'no query' : `\`${parsed.search}\``,
        hint: rule.append
          ? 'Add them to the link by hand: the rule accepts any value, so it cannot choose one.'
          : `Make the link carry \`${unreported.map(([name, value]) => `${name}=${value === '*' ? '…' : encodeURIComponent(value)}`).join('&')}\`, or set \`append: true\` on the rule to have them added when planning.`,
      });
    }
    if (after !== text) rewrites.push({ key: post.key, accountId: target.accountId, rule: rule.name, field, before: text, after });
  };
  fix(target.text, 'text', (index) => target.locate?.(index) ?? target.at ?? {});
  if (typeof target.options.link === 'string') fix(target.options.link, 'options.link', () => target.at ?? {});
  return { violations, rewrites };
}

function inDomains(host: string, domains: readonly string[] | null): boolean {
  const name = host.toLowerCase();
  return domains === null || domains.some((domain) => name === domain || name.endsWith(`.${domain}`));
}

/** The rule's values for this target: `{platform}` → `photoC`, `{file.dir}` → `2027-01`, …; `*` stays `*`. */
function wantedValues(post: RulePost, rule: UtmRule, target: RuleTarget, context: Context): { values: [string, string][] } | { param: string; problem: string } {
  const facts = context.accounts?.get(target.accountId);
  const builtIns = builtInValues({ key: post.key, fileInContent: post.fileInContent, scheduledAt: post.scheduledAt, timezone: context.timezone, account: { alias: target.label, handle: facts?.handle, platform: facts?.platform } });
  const values: [string, string][] = [];
  for (const [param, template] of Object.entries(rule.params)) {
    const asTemplate = template.replace(/\{\s*([^{}]*?)\s*\}/g, (_, name: string) => `{{ ${UTM_SHORTHANDS[name] ?? name} }}`);
    const rendered = renderTemplate(asTemplate, { file: post.file, vars: context.vars ?? {}, hashtags: context.hashtags ?? {}, builtIns });
    if (rendered.diagnostics.length > 0) return { param, problem: rendered.diagnostics[0]!.message.replace(/^`\{\{ (.*?) \}\}`/, '`{$1}`') };
    values.push([param, rendered.text]);
  }
  return { values };
}
