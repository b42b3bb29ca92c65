import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkHouseRules } from '../../src/house-rules/index.js';
import { ACCOUNTS, ZONE } from './rule-fixtures.js';
import { postsArbitrary, scheduleRulesArbitrary } from './rule-arbitraries.js';

describe('house rules (properties)', () => {
  it('give the same violations whatever the order of the posts', () => {
    fc.assert(
      fc.property(postsArbitrary({ maxLength: 12 }).chain((posts) => fc.tuple(fc.constant(posts), fc.shuffledSubarray(posts, { minLength: posts.length, maxLength: posts.length }))), scheduleRulesArbitrary, ([posts, shuffled], rules) => {
        expect(checkHouseRules({ posts: shuffled, rules, timezone: ZONE, accounts: ACCOUNTS })).toEqual(checkHouseRules({ posts, rules, timezone: ZONE, accounts: ACCOUNTS }));
      }),
      { numRuns: 150 },
    );
  });

  it('never report a settled post because of a changed one: adding changed posts leaves the settled posts\' violations as they were', () => {
    fc.assert(
      fc.property(postsArbitrary({ maxLength: 8, standing: fc.constant('settled') }), postsArbitrary({ maxLength: 8, standing: fc.constant('changed') }), scheduleRulesArbitrary, (settled, changed, rules) => {
        const keys = new Set(settled.map((p) => p.key));
        const fresh = changed.filter((p) => !keys.has(p.key));
        const alone = checkHouseRules({ posts: settled, rules, timezone: ZONE, accounts: ACCOUNTS }).violations;
        const together = checkHouseRules({ posts: [...settled, ...fresh], rules, timezone: ZONE, accounts: ACCOUNTS }).violations.filter((v) => keys.has(v.key));
        expect(together).toEqual(alone);
      }),
      { numRuns: 150 },
    );
  });
});
