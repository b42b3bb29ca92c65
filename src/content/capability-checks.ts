import { knownOptionRules } from '../api/option-rules.js';
import { NEEDS_AN_ACCOUNT } from './readiness.js';
import type { Capabilities, CaptionRules, OptionRule } from '../api/types.js';
import { readinessOf, type Diagnostic } from '../diagnostics.js';
import { didYouMean } from '../text/did-you-mean.js';
import { codePointLength, lengthOver, unitWord } from './text-length.js';
import type { DesiredPost, PostToCheck, SourcePosition, TargetKeys, TargetShape } from './types.js';

/**
 * Per-account checks from the capabilities endpoint, run before any write: account availability,
 * caption length (in the account's unit) and presence, option fields and attachment counts.
 * Media types, sizes and durations are checked with the media (src/media/).
 * Each diagnostic names the post file and the account as written in the file, and points at the
 * key it is about (an option, the target's `content:` or `options:`), else at the target's entry.
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
  posts: readonly PostToCheck[],
  capabilitiesByAccountId: ReadonlyMap<string, Capabilities>,
  options: CapabilityCheckOptions = {},
): Diagnostic[] {
  const unavailableSeverity = options.unavailableAccounts ?? 'error';
  const diagnostics: Diagnostic[] = [];
  // Each account's option rules are read once for all the posts that target it.
  const optionRulesOf = new Map<Capabilities, Record<string, OptionRule> | null>();
  for (const post of posts) {
    // The publishing rules of a file with errors wait until it reads cleanly (PostToCheck).
    const readiness = post.ofInvalidFile !== true;
    if (readiness && post.shape.targets.length === 0 && post.slot === undefined) diagnostics.push(needsAnAccount(post));
    post.shape.targets.forEach((target, index) => {
      const account = post.targetLabels[index] ?? target.socialAccountId;
      const entry = post.locations?.targets[index] ?? undefined;
      const keys = post.locations?.targetKeys?.[index];
      const report: Report = (diagnostic) => diagnostics.push(positioned(post, diagnostic, entry));
      const notReady: Report = (diagnostic) => (readiness ? diagnostics.push(readinessOf(positioned(post, diagnostic, entry), post.shape)) : undefined);
      const capabilities = capabilitiesByAccountId.get(target.socialAccountId);
      if (capabilities === undefined) {
        const named = account === target.socialAccountId ? `\`${account}\`` : `\`${account}\` (${target.socialAccountId})`;
        report({ code: 'account-not-found', message: `account ${named} is not in this project`, hint: '`postsync accounts` lists the accounts this API key can post to.' });
        return;
      }
      const where = `\`${account}\` (${capabilities.account.platform})`;
      if (!capabilities.supported) report({ severity: unavailableSeverity, code: 'account-unsupported', message: `account ${where} is not supported by the API`, found: capabilities.reason, hint: 'Remove it from targets.' });
      else if (!capabilities.available) report({ severity: unavailableSeverity, code: 'account-unavailable', message: `account ${where} is not available${capabilities.reason ? `: ${capabilities.reason}` : ''}`, hint: 'Reconnect the account in the service, or remove it from targets.' });
      checkCaption(post, target, capabilities.rules.caption, { where, at: target.contentOverride === undefined ? undefined : keys?.content }, notReady);
      let optionRules = optionRulesOf.get(capabilities);
      if (optionRules === undefined) optionRulesOf.set(capabilities, (optionRules = knownOptionRules(capabilities.rules.options)));
      // Options described in a vocabulary postsync does not know are left to the service.
      if (optionRules !== null) checkOptions(target, optionRules, { where, keys }, { report, notReady });
      checkAttachmentCount(post, capabilities.rules, where, notReady);
    });
  }
  return diagnostics;
}

/**
 * A draft that names no account is fine as a draft, but scheduling it is an error
 * (`schedule-without-targets`): a readiness warning, so that "ready to schedule" means the same
 * everywhere (`readiness.ts`). A scheduled post without accounts has that error already.
 */
function needsAnAccount(post: DesiredPost): Diagnostic {
  return readinessOf({
    severity: 'warning',
    code: 'schedule-without-targets',
    message: NEEDS_AN_ACCOUNT,
    file: post.file,
    expected: 'one or more entries under `targets:`',
    found: 'no targets',
    hint: 'Add the accounts to publish to under `targets:` before you give the post a time.',
  }, post.shape);
}

/** `at`: where the key the diagnostic is about is written, when known. */
type Report = (diagnostic: Omit<Diagnostic, 'severity' | 'file'> & { severity?: Diagnostic['severity']; at?: SourcePosition | undefined }) => void;

/** An error on the post's file, at `at` (the key it is about) when known, else at the target's entry. */
function positioned(post: DesiredPost, diagnostic: Parameters<Report>[0], entry: SourcePosition | undefined): Diagnostic {
  const { at, ...rest } = diagnostic;
  const position = at ?? entry;
  return { severity: 'error', file: post.file, ...(position === undefined ? {} : { line: position.line, column: position.column }), ...rest };
}

function checkCaption(post: DesiredPost, target: TargetShape, rules: CaptionRules, context: { where: string; at: SourcePosition | undefined }, report: Report): void {
  const { where, at } = context;
  const text = target.contentOverride ?? post.shape.content;
  const source = target.contentOverride === undefined ? 'the post text' : 'the `content` of this target';
  const length = lengthOver(text, rules.lengthUnit, rules.maxLength);
  if (length !== null) {
    report({
      at,
      code: 'caption-too-long',
      message: `${source} is too long for ${where}`,
      expected: `at most ${rules.maxLength} ${unitWord(rules.lengthUnit)}`,
      found: `${length} ${unitWord(rules.lengthUnit)}`,
      hint: target.contentOverride === undefined ? 'Shorten the text, or give this target a shorter `content:`.' : 'Shorten this target\'s `content:`.',
    });
  }
  if (text.trim() === '' && captionRequired(post, rules.requiredExcept)) {
    report({ at, code: 'caption-required', message: `${where} needs a text`, expected: requiredWords(rules.requiredExcept), found: 'an empty text', hint: 'Write the post text below the front-matter, or give this target a `content:`.' });
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

/**
 * `report` for what the options may never be, at the option's key; `notReady` for a required
 * option that is missing, at the target's `options:`.
 */
function checkOptions(target: TargetShape, rules: Record<string, OptionRule>, context: { where: string; keys: TargetKeys | undefined }, reporters: { report: Report; notReady: Report }): void {
  const { where, keys } = context;
  const accepted = Object.keys(rules);
  const options = target.options as Record<string, unknown>;
  for (const [field, value] of Object.entries(options)) {
    const rule = rules[field];
    const at = keys?.option[field] ?? keys?.options;
    const report: Report = (diagnostic) => reporters.report({ at, ...diagnostic });
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
      reporters.notReady({ at: keys?.options, code: 'option-required', message: `${where} needs the option \`${field}\``, expected: `\`${field}\` (${rule.type})`, hint: `Add \`${field}\` under this target's \`options:\`.` });
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
