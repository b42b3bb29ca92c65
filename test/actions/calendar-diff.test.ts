import { describe, expect, it } from 'vitest';
import { renderCalendarDiff } from '../../src/actions/calendar-diff.js';
import { inlineCode, markdownText, md } from '../../src/text/markdown.js';
import { COMMENT_LIMIT, LIMIT_MARGIN } from '../../src/actions/limits.js';
import { desired, desiredMedia, livePost, mediaState, owning, shape, SHA_A, SHA_B } from '../helpers/fixtures.js';
import { calendarFor } from '../calendar/fixtures.js';
import { LONG_AFTER, LONG_BEFORE } from '../text/texts.js';

describe('the calendar diff in Markdown', () => {
  it('lists a moved post under the week it leaves and the week it lands in', () => {
    const applied = shape({ scheduledAt: '2027-01-05T09:00:00.000Z', content: 'Moving' });
    const model = calendarFor({ posts: [desired('moving', { ...applied, scheduledAt: '2027-01-13T09:00:00.000Z' })], remote: [livePost('p1', applied)], owned: owning({ moving: ['p1', applied] }) });
    const text = String(renderCalendarDiff(model, { maxBytes: 100_000 }));
    expect(text).toContain('**2 weeks touched:** 1 moved');
    expect(text).toContain('#### 2027-W01: Mon 4 Jan 2027 – Sun 10 Jan 2027\n\n| | When | Post | Accounts | Text |\n|---|---|---|---|---|\n| 🔀 moved | Tue 5 Jan 2027, 10:00 (+01:00) → Wed 13 Jan 2027, 10:00 (+01:00) (another week) | `moving` | brand-photo | Moving |');
    expect(text).toContain('#### 2027-W02: Mon 11 Jan 2027 – Sun 17 Jan 2027\n\n| | When | Post | Accounts | Text |\n|---|---|---|---|---|\n| 🔀 moved | Tue 5 Jan 2027, 10:00 (+01:00) → **Wed 13 Jan 2027, 10:00 (+01:00)** | `moving` | brand-photo | Moving |');
    expect(text).not.toContain('CAUTION');
  });

  it('marks a post both moved and edited as both, with what else changed and the text it had', () => {
    const applied = shape({ scheduledAt: '2027-01-05T09:00:00.000Z', content: 'Old words' });
    const model = calendarFor({ posts: [desired('moving', { ...applied, scheduledAt: '2027-01-06T09:00:00.000Z', content: 'New words' })], remote: [livePost('p1', applied)], owned: owning({ moving: ['p1', applied] }) });
    const text = String(renderCalendarDiff(model, { maxBytes: 100_000 }));
    expect(text).toContain('| 🔀 moved, ✏️ changed | Tue 5 Jan 2027, 10:00 (+01:00) → **Wed 6 Jan 2027, 10:00 (+01:00)** | `moving` | brand-photo | New words<br>also changed: content; before: <del>Old words</del> |');
    expect(text).toContain('**1 week touched:** 1 moved');
  });

  it('stays within its byte budget, leaving out whole weeks and saying so', () => {
    const posts = Array.from({ length: 400 }, (_, index) => desired(`post-${index}`, shape({ scheduledAt: new Date(Date.UTC(2027, 0, 1 + index, 9)).toISOString(), content: `Post number ${index}: ${'beans '.repeat(12)}` })));
    const model = calendarFor({ posts });
    const whole = String(renderCalendarDiff(model, { maxBytes: 10_000_000 }));
    const cut = String(renderCalendarDiff(model, { maxBytes: 20_000, footer: md`See the artifact.` }));
    expect(Buffer.byteLength(whole)).toBeGreaterThan(20_000);
    expect(Buffer.byteLength(cut)).toBeLessThanOrEqual(20_000);
    expect(cut).toMatch(/_…and \d+ more sections not shown: GitHub limits this text, so it stops here \(400 changed posts in all\)\. The calendar page shows every one\._\n\nSee the artifact\.\n$/);
    expect(cut).toContain('`post-0`');
    expect(cut).not.toContain('`post-399`');
  });

  it('keeps captions and keys from changing the Markdown or HTML around them', () => {
    expect(String(markdownText('<b>*bold*</b> | [link](x) & `tick`\nnext'))).toBe('&lt;b&gt;\\*bold\\*&lt;/b&gt; \\| \\[link\\](x) &amp; \\`tick\\` next');
    expect(String(inlineCode('a`b|c', { table: true }))).toBe('``a`b\\|c``');
    expect(String(inlineCode('`a|b'))).toBe('`` `a|b ``');
    const model = calendarFor({ posts: [desired('x', shape({ scheduledAt: '2027-01-05T09:00:00.000Z', content: '<!-- hide --> | ## not a heading' }))] });
    expect(String(renderCalendarDiff(model, { maxBytes: 100_000 }))).toContain('| `x` | brand-photo | &lt;!-- hide --&gt; \\| ## not a heading |');
  });

  it('folds a word diff per edited post: the changed words with a few around them', () => {
    const applied = shape({ scheduledAt: '2027-01-05T09:00:00.000Z', content: LONG_BEFORE });
    const model = calendarFor({ posts: [desired('cafe-hours', { ...applied, content: LONG_AFTER })], remote: [livePost('p1', applied)], owned: owning({ 'cafe-hours': ['p1', applied] }) });
    const text = String(renderCalendarDiff(model, { maxBytes: 100_000 }));
    expect(text).toContain('<details><summary>\n\n✏️ `cafe-hours`: what changes\n\n</summary>\n\n**content**: …art. Saturday tasting starts at <del>nine</del><ins>ten</ins>, bring a friend and …\n\n</details>');
  });

  it('marks a post moved and edited as both, with its word diff', () => {
    const applied = shape({ scheduledAt: '2027-01-05T09:00:00.000Z', content: 'Open at nine' });
    const edited = { ...applied, scheduledAt: '2027-01-06T09:00:00.000Z', content: 'Open at ten' };
    const model = calendarFor({ posts: [desired('moving', edited)], remote: [livePost('p1', applied)], owned: owning({ moving: ['p1', applied] }) });
    const text = String(renderCalendarDiff(model, { maxBytes: 100_000 }));
    expect(text).toContain('| 🔀 moved, ✏️ changed | Tue 5 Jan 2027, 10:00 (+01:00) → **Wed 6 Jan 2027, 10:00 (+01:00)** | `moving` | brand-photo | Open at ten<br>also changed: content; before: <del>Open at nine</del> |');
    expect(text).toContain('**content**: Open at <del>nine</del><ins>ten</ins>');
  });

  it('an account’s own text by the account’s name', () => {
    const applied = shape({ scheduledAt: '2027-01-05T09:00:00.000Z', targets: [{ socialAccountId: '6f1c2d6e-0a55-4c59-9d0f-3b8f5d1a7e01', contentOverride: 'Open until six', options: {} }] });
    const edited = { ...applied, targets: [{ ...applied.targets[0]!, contentOverride: 'Open until eight' }] };
    const model = calendarFor({ posts: [desired('hours', edited)], remote: [livePost('p1', applied)], owned: owning({ hours: ['p1', applied] }) });
    expect(String(renderCalendarDiff(model, { maxBytes: 100_000 }))).toContain('**content for brand-photo**: Open until <del>six</del><ins>eight</ins>');
  });

  it('stays within GitHub’s comment limit with 10,000 edited posts', () => {
    const posts: ReturnType<typeof desired>[] = [];
    const remote: ReturnType<typeof livePost>[] = [];
    const owned: Record<string, [string, ReturnType<typeof shape>]> = {};
    for (let index = 0; index < 10_000; index++) {
      const applied = shape({ scheduledAt: new Date(Date.UTC(2027, 0, 1, 9) + index * 3_600_000).toISOString(), content: `${index} ${LONG_BEFORE}` });
      posts.push(desired(`post-${index}`, { ...applied, content: `${index} ${LONG_AFTER}` }));
      remote.push(livePost(`p${index}`, applied));
      owned[`post-${index}`] = [`p${index}`, applied];
    }
    const text = String(renderCalendarDiff(calendarFor({ posts, remote, owned: owning(owned) }), { maxBytes: COMMENT_LIMIT - LIMIT_MARGIN }));
    expect(text.length).toBeLessThanOrEqual(COMMENT_LIMIT - LIMIT_MARGIN);
    expect(text).toContain('<del>nine</del><ins>ten</ins>');
    expect(text).toMatch(/more sections? not shown/);
  }, 60_000);
});

describe('thumbnails in the calendar diff', () => {
  const pictures = { server: 'https://github.com', repository: 'acme/site', commit: 'a'.repeat(40), folder: 'brand' };
  const image = (sha: string, path: string) => desiredMedia(sha, path);
  const video = (sha: string, path: string) => ({ ...desiredMedia(sha, path), contentType: 'video/mp4', kind: 'video' as const });
  const at = '2027-01-05T09:00:00.000Z';

  it('shows a new post’s pictures at the pull request’s commit, by their repository path; a video by name only', () => {
    const post = desired('launch', shape({ scheduledAt: at, media: [SHA_A, SHA_B] }), { media: [image(SHA_A, 'media/latte art.png'), video(SHA_B, 'media/pour.mp4')] });
    const text = String(renderCalendarDiff(calendarFor({ posts: [post] }), { maxBytes: 100_000, pictures }));
    expect(text).toContain(`<img src="https://github.com/acme/site/blob/${'a'.repeat(40)}/brand/media/latte%20art.png?raw=true" alt="media/latte art.png" height="64">`);
    expect(text).not.toContain('pour.mp4?raw=true');
  });

  it('shows the new bytes of a replaced picture and an added one; a removed picture has no thumbnail', () => {
    const applied = shape({ scheduledAt: at, media: [SHA_A, SHA_B] });
    const edited = shape({ scheduledAt: at, media: [SHA_B, 'c'.repeat(64)] });
    const post = desired('menu', edited, { media: [image(SHA_B, 'media/kept.png'), image('c'.repeat(64), 'media/new.png')] });
    const model = calendarFor({ posts: [post], remote: [livePost('p1', applied)], owned: { ...owning({ menu: ['p1', applied] }), media: mediaState(SHA_A, SHA_B) } });
    const text = String(renderCalendarDiff(model, { maxBytes: 100_000, pictures }));
    expect(model.posts[0]!.change?.media?.map((delta) => delta.kind)).toEqual(['added', 'removed']);
    expect(text).toContain('/brand/media/new.png?raw=true');
    expect(text).not.toContain('/brand/media/kept.png?raw=true');
    expect(text.match(/<img /g)).toHaveLength(1);
  });

  it('keeps a hostile file name inside the attribute, and shows no thumbnail without a commit to show it at', () => {
    const name = 'media/x" onerror="alert(1)<b>.png';
    const post = desired('evil', shape({ scheduledAt: at, media: [SHA_A] }), { media: [image(SHA_A, name)] });
    const text = String(renderCalendarDiff(calendarFor({ posts: [post] }), { maxBytes: 100_000, pictures }));
    expect(text).toContain('/brand/media/x%22%20onerror%3D%22alert(1)%3Cb%3E.png?raw=true" alt="media/x&quot; onerror=&quot;alert(1)&lt;b&gt;.png" height="64">');
    expect(String(renderCalendarDiff(calendarFor({ posts: [post] }), { maxBytes: 100_000 }))).not.toContain('<img');
  });
});

