import { describe, expect, it } from 'vitest';
import { textChangeOf } from '../../src/plan/text-fields.js';

describe('textChangeOf', () => {
  it('gives both texts of a change of the content', () => {
    expect(textChangeOf({ field: 'content', before: 'Launch', after: 'Launch day' })).toEqual({ before: 'Launch', after: 'Launch day' });
  });

  it("gives both texts of an account's own text, with the account, a missing side as the empty text", () => {
    const account = '00000000-0000-4000-8000-000000000001';
    expect(textChangeOf({ field: `targets[${account}].contentOverride`, before: undefined, after: 'Only here' })).toEqual({ before: '', after: 'Only here', account });
    expect(textChangeOf({ field: `targets[${account}].contentOverride`, before: 'Only here', after: null })).toEqual({ before: 'Only here', after: '', account });
  });

  it('is null for any other field, including one that only looks like an account text', () => {
    for (const field of ['scheduledAt', 'media', 'targets', 'targets[a].options.vidATitle', 'targets[].contentOverride', 'targets[a].contentOverride.x', 'x.targets[a].contentOverride', 'contents']) {
      expect(textChangeOf({ field, before: 'a', after: 'b' }), field).toBeNull();
    }
  });
});
