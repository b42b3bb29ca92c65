import type { MinGapRule, QuietHoursRule } from '../../src/config/house-rule-types.js';
import { parseSlot } from '../../src/config/slots-section.js';
import { decideSchedule, type SchedulePolicyInput } from '../../src/plan/schedule-policy.js';
import { at, rule, ZONE } from '../house-rules/rule-fixtures.js';
import { PHOTO, state } from '../helpers/fixtures.js';

/** The calendar tests' clock: a Sunday noon in Berlin. */
const NOW = new Date(at('2027-01-03 12:00'));
export const nights = rule<QuietHoursRule>({ kind: 'quietHours', name: 'nights', from: 22 * 60, to: 7 * 60 });
export const gap = rule<MinGapRule>({ kind: 'minGap', name: 'gap', minutes: 120 });

/** `decideSchedule` with quiet nights, a two-hour gap and the slots Mon 09:00 and Thu 17:30 for PHOTO, unless overridden. */
export function decide(overrides: Partial<SchedulePolicyInput>) {
  return decideSchedule({
    posts: [],
    config: { rules: [nights, gap], slots: { [PHOTO]: ['Mon 09:00', 'Thu 17:30'].flatMap((text) => parseSlot(text)!) }, timezone: ZONE, accounts: { photo: PHOTO } },
    state: state(),
    accounts: new Map(),
    now: NOW,
    prune: false,
    brokenFiles: new Set(),
    ...overrides,
  });
}
