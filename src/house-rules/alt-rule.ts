import type { ImageAltRule } from '../config/house-rule-types.js';
import type { RulePost, RuleViolation } from './rule-input.js';
import { ruleCode } from './rule-scope.js';

/** Each image of the post without `alt` text (blank counts as none). */
export function checkImageAlt(post: RulePost, rule: ImageAltRule): RuleViolation[] {
  return post.media
    .filter((media) => media.kind === 'image' && (media.alt ?? '').trim() === '')
    .map((media) => ({
      severity: rule.severity,
      code: ruleCode(rule),
      rule: rule.name,
      key: post.key,
      file: post.file,
      ...media.at,
      message: `rule \`${rule.name}\`: image \`${media.path}\` has no alt text`,
      expected: 'an `alt` text describing the image',
      found: media.alt === undefined ? 'no `alt`' : 'an empty `alt`',
      hint: `Write it as \`- path: ${media.path}\` with \`alt: <what the image shows>\` on the next line.`,
    }));
}
