import type { OptionRule, Target, TargetInput } from '../../api/types.js';
import { RESPONSE_ONLY_OPTION_FIELDS } from '../../api/types.js';
import type { AccountRecord } from '../store/model.js';
import { isSupportedPlatform, responseOnlyOptions, rulesFor } from './platform-rules.js';
import type { Project } from '../store/store.js';
import { type Violations, codePointLength, isUuid } from '../protocol/validate.js';

/**
 * A target as the service returns it: platform and handle from the account, status `pending`,
 * the input options echoed exactly as sent (no defaults) plus the response-only fields.
 */
export function targetFor(account: AccountRecord, input: TargetInput): Target {
  const target: Target = {
    socialAccountId: account.id,
    platform: account.platform,
    handle: account.handle,
    options: { ...(input.options ?? {}), ...responseOnlyOptions(account.platform) },
    status: 'pending',
  };
  if (input.contentOverride !== undefined) target.contentOverride = input.contentOverride;
  return target;
}

/**
 * Resolves target inputs against the project's accounts and each platform's option rules: what no
 * post may have (an unknown account or option, a value of the wrong type). Required options are a
 * publishing rule, checked when the post is scheduled (checkPublishable).
 */
export function buildTargets(project: Project, inputs: readonly TargetInput[], violations: Violations): Target[] {
  const targets: Target[] = [];
  inputs.forEach((input, i) => {
    const where = `targets[${i}]`;
    if (!isUuid(input.socialAccountId)) return; // already reported by the shape check
    const account = project.account(input.socialAccountId);
    if (!account) {
      violations.add(`${where}.socialAccountId ${input.socialAccountId} is not an account of this project`);
      return;
    }
    if (!isSupportedPlatform(account.platform)) {
      violations.add(`${where}: platform ${account.platform} of ${account.handle} is not supported`);
      return;
    }
    checkOptions(account.platform, (input.options ?? {}) as Record<string, unknown>, `${where}.options`, violations);
    targets.push(targetFor(account, input));
  });
  return targets;
}

function checkOptions(platform: string, options: Record<string, unknown>, where: string, violations: Violations): void {
  const rules = rulesFor(platform).options;
  for (const [name, value] of Object.entries(options)) {
    if ((RESPONSE_ONLY_OPTION_FIELDS as readonly string[]).includes(name)) {
      violations.add(`${where}.${name} is response-only and cannot be sent`);
      continue;
    }
    const rule = rules[name];
    if (!rule) {
      violations.add(`${where}.${name} is not an option of ${platform} accounts (allowed: ${Object.keys(rules).join(', ')})`);
      continue;
    }
    const problem = optionProblem(rule, value);
    if (problem) violations.add(`${where}.${name} ${problem}`);
  }
}

function optionProblem(rule: OptionRule, value: unknown): string | undefined {
  if (rule.type === 'boolean') return typeof value === 'boolean' ? undefined : 'must be a boolean';
  if (rule.type === 'string') {
    if (typeof value !== 'string') return 'must be a string';
    if (rule.values && !rule.values.includes(value)) return `must be one of ${rule.values.join(', ')}`;
    if (rule.maxLength !== undefined && codePointLength(value) > rule.maxLength) return `must be at most ${rule.maxLength} characters`;
    return undefined;
  }
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) return 'must be an array of strings';
  if (rule.maxItems !== undefined && value.length > rule.maxItems) return `must have at most ${rule.maxItems} items`;
  const maxLength = rule.maxLength;
  if (maxLength !== undefined && value.some((item: string) => codePointLength(item) > maxLength)) return `items must be at most ${maxLength} characters`;
  return undefined;
}
