import { describe, expect, it } from 'vitest';
import { renderCalendarDiff } from '../../src/actions/calendar-diff.js';
import { inlineCode, markdownText } from '../../src/text/markdown.js';
import { desired, livePost, owning, shape } from '../helpers/fixtures.js';
import { calendarFor } from '../calendar/fixtures.js';

describe('the calendar diff in Markdown', () => {
  it('lists a moved post under the week it leaves and the week it lands in', () => {
    const applied = shape({ scheduledAt: '2027-01-05T09:00:00.000Z', content: 'Moving' });
    const model = calendarFor({ posts: [desired('moving', { ...applied, scheduledAt: '2027-01-13T09:00:00.000Z' })], remote: [livePost('p1', applied)], owned: owning({ moving: ['p1', applied] }) });
    const text = renderCalendarDiff(model, { maxBytes: 100_000 });
    expect(text).toContain('**2 weeks touched:** 1 moved');
    expect(text).toContain('#### 2027-W01: Mon 4 Jan 2027 – Sun 10 Jan 2027\n\n| | When | Post | Accounts | Text |\n|---|---|---|---|---|\n| 🔀 moved | Tue 5 Jan 2027, 10:00 (+01:00) → Wed 13 Jan 2027, 10:00 (+01:00) (another week) | `moving` | brand-photo | Moving |');
    expect(text).toContain('#### 2027-W02: Mon 11 Jan 2027 – Sun 17 Jan 2027\n\n| | When | Post | Accounts | Text |\n|---|---|---|---|---|\n| 🔀 moved | Tue 5 Jan 2027, 10:00 (+01:00) → **Wed 13 Jan 2027, 10:00 (+01:00)** | `moving` | brand-photo | Moving |');
    expect(text).not.toContain('CAUTION');
  });

  it('stays within its byte budget, leaving out whole weeks and saying so', () => {
    const posts = Array.from({ length: 400 }, (_, index) => desired(`post-${index}`, shape({ scheduledAt: new Date(Date.UTC(2027, 0, 1 + index, 9)).toISOString(), content: `Post number ${index}: ${'beans '.repeat(12)}` })));
    const model = calendarFor({ posts });
    const whole = renderCalendarDiff(model, { maxBytes: 10_000_000 });
    const cut = renderCalendarDiff(model, { maxBytes: 20_000, footer: 'See the artifact.' });
    expect(Buffer.byteLength(whole)).toBeGreaterThan(20_000);
    expect(Buffer.byteLength(cut)).toBeLessThanOrEqual(20_000);
    expect(cut).toMatch(/_…and \d+ more sections not shown: GitHub limits this text, so it stops here \(400 changed posts in all\)\. The calendar page shows every one\._\n\nSee the artifact\.\n$/);
    expect(cut).toContain('`post-0`');
    expect(cut).not.toContain('`post-399`');
  });

  it('keeps captions and keys from changing the Markdown or HTML around them', () => {
    expect(markdownText('<b>*bold*</b> | [link](x) & `tick`\nnext')).toBe('&lt;b&gt;\\*bold\\*&lt;/b&gt; \\| \\[link\\](x) &amp; \\`tick\\` next');
    expect(inlineCode('a`b|c', { table: true })).toBe('``a`b\\|c``');
    expect(inlineCode('`a|b')).toBe('`` `a|b ``');
    const model = calendarFor({ posts: [desired('x', shape({ scheduledAt: '2027-01-05T09:00:00.000Z', content: '<!-- hide --> | ## not a heading' }))] });
    expect(renderCalendarDiff(model, { maxBytes: 100_000 })).toContain('| `x` | brand-photo | &lt;!-- hide --&gt; \\| ## not a heading |');
  });
});
