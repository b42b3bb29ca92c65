import { describe, expect, it } from 'vitest';
import { closestMatch, didYouMean, editDistance } from '../../src/text/did-you-mean.js';

describe('did you mean', () => {
  it('counts edits, with a transposition as one', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('shceduledAt', 'scheduledAt')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
  });

  it('suggests plausible misspellings only', () => {
    const fields = ['id', 'scheduledAt', 'draft', 'targets', 'media'];
    expect(closestMatch('scheduled_at', fields)).toBe('scheduledAt');
    expect(closestMatch('SCHEDULEDAT', fields)).toBe('scheduledAt');
    expect(closestMatch('target', fields)).toBe('targets');
    expect(closestMatch('medai', fields)).toBe('media');
    expect(closestMatch('title', fields)).toBeUndefined();
    expect(closestMatch('id', fields)).toBeUndefined();
    expect(didYouMean('drfat', fields)).toBe('did you mean `draft`?');
  });

  it('takes another name for a candidate from its synonyms, in any case and with `_` or `-`', () => {
    const synonyms = { date: 'scheduledAt', publishat: 'scheduledAt' };
    expect(didYouMean('Publish_At', [], synonyms)).toBe('did you mean `scheduledAt`?');
    expect(didYouMean('date', ['draft'], synonyms)).toBe('did you mean `scheduledAt`?');
    expect(didYouMean('colour', [], synonyms)).toBeUndefined();
  });
});
