import type { HouseRule, RuleScope } from '../../src/config/house-rule-types.js';
import type { RulePost, RuleTarget } from '../../src/house-rules/index.js';
import { instantAt, parseWallMoment } from '../../src/zoned-time/index.js';

export const PHOTO = '6f1c2d6e-0a55-4c59-9d0f-3b8f5d1a7e01';
export const VIDEO = '7a2d3e4f-1b66-4d6a-8e1f-4c9a6e2b8f02';
export const SHORT = '8b3e4f50-2c77-4e7b-9f20-5dab7f3c9a03';
export const ZONE = 'Europe/Berlin';
export const ACCOUNTS = new Map([
  [PHOTO, { platform: 'photoC', handle: '@demo.photo' }],
  [VIDEO, { platform: 'vidA', handle: '@demo.video' }],
  [SHORT, { platform: 'shortB', handle: '@demo.short' }],
]);
const LABELS: Record<string, string> = { [PHOTO]: 'brand-photo', [VIDEO]: 'brand-video', [SHORT]: 'brand-short' };

export const EVERYONE: RuleScope = { accounts: null, platforms: null, when: null };

/** A rule with defaults: named after its kind, severity error, every account. */
export function rule<R extends HouseRule>(fields: Omit<R, 'name' | 'severity' | 'scope'> & Partial<Pick<R, 'name' | 'severity' | 'scope'>>): R {
  return { name: fields.kind, severity: 'error', scope: EVERYONE, ...fields } as R;
}

/** `2027-01-04 09:00` on the Berlin clock → an ISO instant. */
export function at(wall: string): string {
  return new Date(instantAt(parseWallMoment(wall)!.moment, ZONE).instantMs).toISOString();
}

export function target(accountId: string, text = 'Hello', options: Record<string, unknown> = {}): RuleTarget {
  return { accountId, label: LABELS[accountId] ?? accountId, text, options, at: { line: 4, column: 5 } };
}

/** A post `key` in `posts/<key>.md`, scheduled at the Berlin wall time `when` (null: a draft). */
export function post(key: string, when: string | null, fields: Partial<RulePost> = {}): RulePost {
  return {
    key,
    file: `posts/${key}.md`,
    fileInContent: `${key}.md`,
    scheduledAt: when === null ? null : at(when),
    scheduleAt: { line: 2, column: 14 },
    targets: [target(PHOTO)],
    media: [],
    ...fields,
  };
}
