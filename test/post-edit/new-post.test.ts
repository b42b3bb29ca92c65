import { describe, expect, it } from 'vitest';
import { duplicateText, newDraftText } from '../../src/post-edit/index.js';

describe('new posts from the calendar', () => {
  it('makes a draft for a day, with no account yet', () => {
    expect(newDraftText({ at: '2027-02-05 09:00' })).toBe('---\n# A draft made in the calendar: choose its accounts, write its text, then schedule it.\nscheduledAt: 2027-02-05 09:00\ndraft: true\ntargets: []\n---\nNew post\n');
    expect(newDraftText({})).not.toContain('scheduledAt');
  });

  it('duplicates a file, giving a set id a new value and nothing else', () => {
    const text = "---\nid: 'launch' # stable\ntargets: [photo]\n---\nHi\r\n";
    expect(duplicateText(text, '-copy')).toBe("---\nid: 'launch-copy' # stable\ntargets: [photo]\n---\nHi\r\n");
    expect(duplicateText('---\ntargets: [photo]\n---\nHi\n', '-copy')).toBe('---\ntargets: [photo]\n---\nHi\n');
  });
});
