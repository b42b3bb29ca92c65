import { knownOptionRules } from '../api/option-rules.js';
import type { Capabilities, CaptionRules, OptionRule } from '../api/types.js';
import { readinessOf, type Diagnostic } from '../diagnostics.js';
import { didYouMean } from '../text/did-you-mean.js';
import { codePointLength, lengthOver, unitWord } from './text-length.js';
import type { DesiredPost, TargetShape } from './types.js';

/**
 * Per-account checks from the capabilities endpoint, run before any write: account availability,
 * caption length (in the account's unit) and presence, option fields and attachment counts.
 * Media types, sizes and durations are checked with the media (src/media/).
 * Each diagnostic names the post file and the account as written in the file.
 *
 * Two kinds of problems: what no post may have, draft or not (an account outside the project, an
 * option the platform does not have or a value of the wrong type or outside its allowed values),
 * is an error; a publishing rule (caption length and presence, a required option, attachment
 * counts) is a readiness diagnostic (`readinessOf`): a warning on a draft, an error once the post
 * is scheduled.
 */
export interface CapabilityCheckOptions {
  /**
   * Severity of `account-unavailable` / `account-unsupported`. Default `error` (the file stops the
   * apply); `warning` leaves the decision to the planner, which shows such targets as blocked.
   */
  unavailableAccounts?: 'error' | 'warning';
}

export function checkAgainstCapabilities(
  posts: readonly DesiredPost[],
  capabilitiesByAccountId: ReadonlyMap<string, Capabilities>,
  options: CapabilityCheckOptions = {},
): Diagnostic[] {
  const unavailableSeverity = options.unavailableAccounts ?? 'error';
  const diagnostics: Diagnostic[] = [];
  for (const post of posts) {
    post.shape.targets.forEach((target, index) => {
      const account = post.targetLabels[index] ?? target.socialAccountId;
      const base = { severity: 'error' as const, file: post.file, ...(post.locations?.targets[index] ?? {}) };
      const report: Report = (diagnostic) => diagnostics.push({ ...base, ...diagnostic });
      const notReady: Report = (diagnostic) => diagnostics.push(readinessOf({ ...base, ...diagnostic }, post.shape));
      const capabilities = capabilitiesByAccountId.get(target.socialAccountId);
      if (capabilities === undefined) {
        const named = account === target.socialAccountId ? `\`${account}\`` : `\`${account}\` (${target.socialAccountId})`;
        report({ code: 'account-not-found', message: `account ${named} is not in this project`, hint: '`postsync accounts` lists the accounts this API key can post to.' });
        return;
      }
      const where = `\`${account}\` (${capabilities.account.platform})`;
      if (!capabilities.supported) report({ severity: unavailableSeverity, code: 'account-unsupported', message: `account ${where} is not supported by the API`, found: capabilities.reason, hint: 'Remove it from targets.' });
      else if (!capabilities.available) report({ severity: unavailableSeverity, code: 'account-unavailable', message: `account ${where} is not available${capabilities.reason ? `: ${capabilities.reason}` : ''}`, hint: 'Reconnect the account in the service, or remove it from targets.' });
      checkCaption(post, target, capabilities.rules.caption, where, notReady);
      const optionRules = knownOptionRules(capabilities.rules.options);
      // Options described in a vocabulary postsync does not know are left to the service.
      if (optionRules !== null) checkOptions(target, optionRules, where, { report, notReady });
      checkAttachmentCount(post, capabilities.rules, where, notReady);
    });
  }
  return diagnostics;
}

type Report = (diagnostic: Omit<Diagnostic, 'severity' | 'file'> & { severity?: Diagnostic['severity'] }) => void;

function checkCaption(post: DesiredPost, target: TargetShape, rules: CaptionRules, where: string, report: Report): void {
  const text = target.contentOverride ?? post.shape.content;
  const source = target.contentOverride === undefined ? 'the post text' : 'the `content` of this target';
  const length = lengthOver(text, rules.lengthUnit, rules.maxLength);
  if (length !== null) {
    report({
      code: 'caption-too-long',
      message: `${source} is too long for ${where}`,
      expected: `at most ${rules.maxLength} ${unitWord(rules.lengthUnit)}`,
      found: `${length} ${unitWord(rules.lengthUnit)}`,
      hint: target.contentOverride === undefined ? 'Shorten the text, or give this target a shorter `content:`.' : 'Shorten this target\'s `content:`.',
    });
  }
  if (text.trim() === '' && captionRequired(post, rules.requiredExcept)) {
    report({ code: 'caption-required', message: `${where} needs a text`, expected: requiredWords(rules.requiredExcept), found: 'an empty text', hint: 'Write the post text below the front-matter, or give this target a `content:`.' });
  }
}

function captionRequired(post: DesiredPost, requiredExcept: CaptionRules['requiredExcept']): boolean {
  switch (requiredExcept) {
    case 'never':
      return true;
    case 'media':
      return post.media.length === 0;
    case 'video':
      return !post.media.some((media) => media.kind === 'video');
    default:
      // 'always', or a rule this version does not know: leave it to the service.
      return false;
  }
}

function requiredWords(requiredExcept: CaptionRules['requiredExcept']): string {
  return requiredExcept === 'media' ? 'a text, unless the post has media' : requiredExcept === 'video' ? 'a text, unless the post has a video' : 'a text';
}

/** `report` for what the options may never be, `notReady` for a required option that is missing. */
function checkOptions(target: TargetShape, rules: Record<string, OptionRule>, where: string, reporters: { report: Report; notReady: Report }): void {
  const { report, notReady } = reporters;
  const accepted = Object.keys(rules);
  const options = target.options as Record<string, unknown>;
  for (const [field, value] of Object.entries(options)) {
    const rule = rules[field];
    if (rule === undefined) {
      report({
        code: 'option-not-supported',
        message: `option \`${field}\` is not accepted by ${where}`,
        expected: accepted.length > 0 ? `one of ${accepted.map((name) => `\`${name}\``).join(', ')}` : 'no options',
        found: `\`${field}\``,
        hint: didYouMean(field, accepted) ?? 'Remove it from this target\'s options.',
      });
      continue;
    }
    checkOptionValue(field, value, rule, where, report);
  }
  for (const [field, rule] of Object.entries(rules)) {
    if (rule.required === true && options[field] === undefined) {
      notReady({ code: 'option-required', message: `${where} needs the option \`${field}\``, expected: `\`${field}\` (${rule.type})`, hint: `Add \`${field}\` under this target's \`options:\`.` });
    }
  }
}

function checkOptionValue(field: string, value: unknown, rule: OptionRule, where: string, report: Report): void {
  const actualType = Array.isArray(value) ? 'array' : typeof value;
  if (actualType !== rule.type) {
    report({ code: 'option-wrong-type', message: `option \`${field}\` has the wrong type for ${where}`, expected: rule.type, found: actualType, hint: `Write \`${field}\` as ${rule.type === 'array' ? 'a list' : rule.type === 'boolean' ? '`true` or `false`' : 'a text'}.` });
    return;
  }
  const items = Array.isArray(value) ? (value as unknown[]) : [value];
  if (rule.values !== undefined) {
    for (const item of items) {
      if (typeof item === 'string' && !rule.values.includes(item)) {
        report({ code: 'option-value-not-allowed', message: `\`${item}\` is not an allowed value of \`${field}\` for ${where}`, expected: `one of ${rule.values.map((v) => `\`${v}\``).join(', ')}`, found: `\`${item}\``, hint: didYouMean(item, rule.values) });
      }
    }
  }
  for (const item of items) {
    // For lists (tags), the limit applies to each entry.
    if (rule.maxLength !== undefined && typeof item === 'string' && codePointLength(item) > rule.maxLength) {
      report({ code: 'option-too-long', message: `option \`${field}\` is too long for ${where}`, expected: `at most ${rule.maxLength} characters`, found: `${codePointLength(item)} characters`, hint: 'Shorten it.' });
    }
  }
  if (rule.maxItems !== undefined && Array.isArray(value) && value.length > rule.maxItems) {
    report({ code: 'option-too-many-items', message: `option \`${field}\` has too many entries for ${where}`, expected: `at most ${rule.maxItems}`, found: `${value.length}`, hint: 'Remove some entries.' });
  }
}

function checkAttachmentCount(post: DesiredPost, accountRules: Capabilities['rules'], where: string, report: Report): void {
  const rules = accountRules.attachments;
  const count = post.media.length;
  if (count < rules.min) {
    const kinds = acceptedKinds(accountRules.media, rules.min);
    report({ code: 'too-few-attachments', message: `${where} needs at least ${rules.min} ${kinds}`, expected: `${rules.min} to ${rules.max} media files`, found: `${count}`, hint: `Add ${rules.min === 1 ? 'one' : rules.min} ${kinds} under \`media:\`.` });
  }
  if (count > rules.max) {
    report({ code: 'too-many-attachments', message: `${where} accepts at most ${rules.max} media file${rules.max === 1 ? '' : 's'}`, expected: `${rules.min} to ${rules.max} media files`, found: `${count}`, hint: 'Remove media, or post to this account separately.' });
  }
}

/** `image or video`, `videos`: the kinds of media an account takes, for "needs at least 1 …". */
function acceptedKinds(media: Capabilities['rules']['media'], count: number): string {
  const s = count === 1 ? '' : 's';
  const kinds = [media.images.contentTypes.length > 0 ? `image${s}` : '', media.videos.contentTypes.length > 0 ? `video${s}` : ''].filter(Boolean);
  return kinds.length === 0 ? `media file${s}` : kinds.join(' or ');
}
