import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkHouseRules, type RulePost } from '../../src/house-rules/index.js';
import { assignSlots, isSlotOf, type AssignSlotsInput, type SlotAssignment, type SlotRequest } from '../../src/slots/index.js';
import { ACCOUNTS, post, target, ZONE } from '../house-rules/rule-fixtures.js';
import { ACCOUNT_IDS, at, postsArbitrary, scheduleRulesArbitrary, slotTableArbitrary } from '../house-rules/rule-arbitraries.js';

const requestsArbitrary = fc.uniqueArray(fc.record({ key: fc.stringMatching(/^s-[a-z]{1,5}$/), accountIds: fc.subarray(ACCOUNT_IDS, { minLength: 1, maxLength: 2 }) }), { selector: (r) => r.key, maxLength: 8 }).map((list): SlotRequest[] => list.map(({ key, accountIds }) => ({ key, file: `posts/${key}.md`, accountIds, labels: accountIds })));

const inputArbitrary = fc.record({ requests: requestsArbitrary, posts: postsArbitrary({ maxLength: 8 }), rules: scheduleRulesArbitrary, slots: slotTableArbitrary, now: fc.constantFrom(at('2027-01-03 12:00'), at('2027-03-20 08:00')) }).map(
  (input): AssignSlotsInput => ({ ...input, recorded: new Map(), timezone: ZONE, accounts: ACCOUNTS, horizonDays: 60 }),
);

/** The posts as the house rules see them once the slot posts have their times. */
function withAssignments(input: AssignSlotsInput, assignments: readonly SlotAssignment[]): RulePost[] {
  const requests = new Map(input.requests.map((r) => [r.key, r]));
  const slotted = assignments.map((a) => post(a.key, null, { scheduledAt: a.scheduledAt, standing: a.source === 'recorded' ? 'settled' : 'slotted', targets: requests.get(a.key)!.accountIds.map((id) => target(id)) }));
  return [...input.posts, ...slotted];
}

describe('slot assignment (properties)', () => {
  it('is deterministic: the same input in any order gives the same times', () => {
    fc.assert(
      fc.property(inputArbitrary, fc.nat(), (input, seed) => {
        const shuffle = <T>(list: readonly T[]) => [...list].map((item, index) => ({ item, rank: (index * 7919 + seed) % 104_729 })).sort((a, b) => a.rank - b.rank).map((x) => x.item);
        expect(assignSlots({ ...input, requests: shuffle(input.requests), posts: shuffle(input.posts) })).toEqual(assignSlots(input));
      }),
      { numRuns: 80 },
    );
  });

  it('gives only declared, future, unshared slots, where the post breaks no rule and makes no other post break one', () => {
    fc.assert(
      fc.property(inputArbitrary, (input) => {
        const { assignments } = assignSlots(input);
        const assigned = new Set(assignments.map((a) => a.key));
        const taken = new Set<string>();
        for (const a of assignments) {
          const request = input.requests.find((r) => r.key === a.key)!;
          const slotted = request.accountIds.filter((id) => (input.slots[id] ?? []).length > 0);
          const instant = Date.parse(a.scheduledAt);
          expect(instant).toBeGreaterThan(Date.parse(input.now));
          for (const id of slotted) {
            expect(isSlotOf(input.slots, [id], instant, ZONE)).toBe(true);
            expect(taken.has(`${id} ${instant}`)).toBe(false);
            taken.add(`${id} ${instant}`);
          }
        }
        const { violations } = checkHouseRules({ posts: withAssignments(input, assignments), rules: input.rules, timezone: ZONE, accounts: ACCOUNTS });
        expect(violations.filter((v) => assigned.has(v.key) || v.clashesWith?.some((c) => c.key !== undefined && assigned.has(c.key)))).toEqual([]);
      }),
      { numRuns: 80 },
    );
  });

  it('never moves a post whose slot is recorded when a post is added', () => {
    fc.assert(
      fc.property(inputArbitrary, fc.boolean(), wallTimeOrSlot(), (input, asRequest, extra) => {
        const first = assignSlots(input);
        const recorded = new Map(first.assignments.map((a) => [a.key, a.scheduledAt]));
        const added: Partial<AssignSlotsInput> = asRequest
          ? { requests: [...input.requests, { key: 'zz-new', file: 'posts/zz-new.md', accountIds: [extra.account], labels: [extra.account] }] }
          : { posts: [...input.posts, post('zz-new', extra.when, { targets: [target(extra.account)] })] };
        const second = assignSlots({ ...input, ...added, recorded });
        for (const before of first.assignments) expect(second.assignments.find((a) => a.key === before.key)).toEqual({ ...before, source: 'recorded' });
      }),
      { numRuns: 80 },
    );
  });
});

function wallTimeOrSlot() {
  return fc.record({ account: fc.constantFrom(...ACCOUNT_IDS), when: fc.constantFrom('2027-01-04 09:00', '2027-01-05 12:00', '2027-03-23 17:30') });
}
