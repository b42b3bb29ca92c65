import { describe, expect, it } from 'vitest';
import { renderPlan, summaryLine } from '../../cli/views/plan-human.js';
import { renderPlanMarkdown } from '../../cli/views/plan-markdown.js';
import { colours } from '../../cli/views/style.js';
import { term } from '../../src/text/terminal.js';
import { PLAN_SUMMARY_BUDGET } from '../../src/actions/limits.js';
import { createPlan } from '../../src/plan/planner.js';
import type { Change, Plan } from '../../src/plan/types.js';
import { LONG_AFTER, LONG_BEFORE } from '../text/texts.js';
import { desired, desiredMedia, livePost, looseChange, mediaState, planInput, planOf, PHOTO, record, shape, state, SHA_A, SHA_B } from '../helpers/fixtures.js';

/** What a reviewer reads: the plan in the terminal and the job summary shows what changes in a post, not only which fields. */
const plain = colours(false);
const colour = colours(true);
const aliases = new Map([[PHOTO, 'brand-photo']]);

/** The plan of one post that was `applied` and is now `edited` in its file. */
function planOfEdit(applied = shape({ content: LONG_BEFORE }), edited = shape({ content: LONG_AFTER }), media = { files: undefined as ReturnType<typeof desiredMedia>[] | undefined, known: [] as string[] }): Plan {
  const owned = state({ posts: { 'cafe-hours': record('p1', applied, 'posts/cafe-hours.md') }, media: mediaState(...media.known) });
  const post = desired('cafe-hours', edited, media.files === undefined ? {} : { media: media.files });
  return createPlan(planInput({ desired: [post], state: owned, live: [livePost('p1', applied)] }));
}

const terminal = (plan: Plan, options: { style?: typeof plain; fullText?: boolean; verbose?: boolean } = {}) =>
  String(renderPlan(plan, { label: 'Target: local', style: options.style ?? plain, timezone: 'Europe/Berlin', aliases, fullText: options.fullText ?? false, verbose: options.verbose ?? false }));
const markdown = (plan: Plan, options: { fullText?: boolean } = {}) => String(renderPlanMarkdown(plan, { label: 'Target: local', timezone: 'Europe/Berlin', aliases, fullText: options.fullText ?? false }));

describe('a text edit in the terminal', () => {
  it('marks the changed word of a 400-character text with a few words around it (no colour: git word-diff form)', () => {
    const text = terminal(planOfEdit());
    expect(text).toContain('      content: …art. Saturday tasting starts at [-nine-]{+ten+}, bring a friend and …');
    expect(text).not.toContain('Rosetta');
  });

  it('in colour: removed red and struck through, added green and underlined', () => {
    const text = terminal(planOfEdit(), { style: colour });
    expect(text).toContain(`at ${colour.red(colour.strikethrough(term`nine`))}${colour.green(colour.underline(term`ten`))}, bring`);
  });

  it('--full-text: the whole text, its change marked', () => {
    const text = terminal(planOfEdit(), { fullText: true });
    expect(text).toContain('      content (whole text):');
    expect(text).toContain(`        ${LONG_BEFORE.replace('at nine', 'at [-nine-]{+ten+}')}`);
  });

  it('an account’s own text too, named by its alias', () => {
    const applied = shape({ targets: [{ socialAccountId: PHOTO, contentOverride: 'Open until six today', options: {} }] });
    const edited = shape({ targets: [{ socialAccountId: PHOTO, contentOverride: 'Open until eight today', options: {} }] });
    expect(terminal(planOfEdit(applied, edited))).toContain('      content for brand-photo: Open until [-six-]{+eight+} today');
    // The reason names the field the same way, not by its path `targets[<id>].contentOverride`.
    expect(terminal(planOfEdit(applied, edited))).toContain('      changed in posts/cafe-hours.md: content for brand-photo\n');
    expect(markdown(planOfEdit(applied, edited))).toContain('changed in posts/cafe-hours.md: content for brand-photo');
  });

  it('escapes what the text holds: a changed word with an escape sequence stays on its line', () => {
    const text = terminal(planOfEdit(shape({ content: 'Hello world' }), shape({ content: 'Hello \u001b[2Jworld' })));
    expect(text).not.toContain('\u001b');
    expect(text).toContain('\\x1b');
  });
});

describe('media by file', () => {
  const sized = (sha: string, path: string, sizeBytes: number) => ({ ...desiredMedia(sha, path), sizeBytes });
  it.each([
    ['added', [SHA_A], [SHA_A, SHA_B], [sized(SHA_A, 'media/a.jpg', 2048), sized(SHA_B, 'media/b.jpg', 4096)], 'media: added media/b.jpg (4 KiB) as no. 2'],
    ['removed', [SHA_A, SHA_B], [SHA_A], [sized(SHA_A, 'media/a.jpg', 2048)], `media: removed a file of 1.2 KiB (sha256 ${SHA_B.slice(0, 12)}…), no. 2`],
    ['replaced', [SHA_A], [SHA_B], [sized(SHA_B, 'media/a.jpg', 4096)], 'media: replaced no. 1: new bytes media/a.jpg (4 KiB), was 1.2 KiB'],
    ['reordered', [SHA_A, SHA_B], [SHA_B, SHA_A], [sized(SHA_B, 'media/b.jpg', 4096), sized(SHA_A, 'media/a.jpg', 2048)], 'media: reordered: media/b.jpg (4 KiB), media/a.jpg (2 KiB)'],
  ])('%s', (_name, before, after, files, line) => {
    const text = terminal(planOfEdit(shape({ media: before }), shape({ media: after }), { files, known: before }));
    expect(text).toContain(`      ${line}`);
    expect(text).not.toMatch(/\["[0-9a-f]{12}/);
  });

  it('in the job summary, names in code', () => {
    const text = markdown(planOfEdit(shape({ media: [SHA_A] }), shape({ media: [SHA_A, SHA_B] }), { files: [sized(SHA_A, 'media/a.jpg', 2048), sized(SHA_B, 'media/b.jpg', 4096)], known: [SHA_A] }));
    expect(text).toContain('**media**: added `media/b.jpg` (4 KiB) as no. 2');
  });
});

describe('a create shows what it makes', () => {
  const created = createPlan(planInput({ desired: [desired('launch', shape({ content: 'Rosetta, tulip or heart?', scheduledAt: '2027-01-05T09:00:00.000Z' }))] }));
  it('in the terminal: its time, accounts and text', () => {
    const text = terminal(created);
    expect(text).toContain('      new file\n      scheduled Tue 5 Jan 2027, 10:00 (+01:00) · on brand-photo\n      text "Rosetta, tulip or heart?"');
  });

  it('in the job summary: time and accounts in its row, its text folded below', () => {
    const text = markdown(created);
    expect(text).toContain('| new file (Tue 5 Jan 2027, 10:00 (+01:00) · brand-photo) |');
    expect(text).toContain('<details><summary>\n\n`launch` · text\n\n</summary>\n\n**text**: Rosetta, tulip or heart?\n\n</details>');
  });
});

describe('a post moved and edited', () => {
  it('shows both its new time and its text change', () => {
    const plan = planOfEdit(shape({ content: 'Open at nine', scheduledAt: '2027-01-05T09:00:00.000Z' }), shape({ content: 'Open at ten', scheduledAt: '2027-01-06T09:00:00.000Z' }));
    const text = terminal(plan);
    expect(text).toContain('      content: Open at [-nine-]{+ten+}');
    expect(text).toContain('      scheduledAt: Tue 5 Jan 2027, 10:00 (+01:00) → Wed 6 Jan 2027, 10:00 (+01:00)');
    const summary = markdown(plan);
    expect(summary).toContain('`scheduledAt` Tue 5 Jan 2027, 10:00 (+01:00) → Wed 6 Jan 2027, 10:00 (+01:00)');
    expect(summary).toContain('**content**: Open at <del>nine</del><ins>ten</ins>');
  });
});

describe('the job summary of a text edit', () => {
  it('folds a word diff per post: the changed words, a few around them', () => {
    const text = markdown(planOfEdit());
    expect(text).toContain('#### What changes\n\n<details><summary>\n\n`cafe-hours` · content\n\n</summary>\n\n**content**: …art. Saturday tasting starts at <del>nine</del><ins>ten</ins>, bring a friend and …\n\n</details>');
    expect(markdown(planOfEdit(), { fullText: true })).toContain(`**content** (whole text): ${LONG_BEFORE.replace('at nine', 'at <del>nine</del><ins>ten</ins>')}`);
  });

  it('keeps a post’s text from changing the Markdown around it', () => {
    const text = markdown(planOfEdit(shape({ content: '# Title\n@team see #12 <b>' }), shape({ content: '# Title\n@team see #13 <b>' })));
    expect(text).toContain('**content**: # Title<br>@\u200dteam see #<del>12</del><ins>13</ins> &lt;b&gt;');
  });
});

describe('what a plain plan leaves out is counted', () => {
  it('a published post whose file was removed: one line, not a bare "No changes."', () => {
    const kept = looseChange({ action: 'noop', reason: 'published-kept', key: 'launch', file: 'posts/launch.md', postId: 'p1', details: [{ code: 'file-removed', file: 'posts/launch.md', outcome: 'published-kept' }] }) as Change;
    expect(summaryLine(planOf([kept]))).toBe("No changes. The remote matches your files. 1 published post's file removed: its post stays as published.");
    expect(summaryLine(planOf([kept, { ...kept, key: 'other' } as Change]))).toContain("2 published posts' files removed: their posts stay as published.");
  });
});

describe('the job summary of 10,000 text edits', () => {
  it('stays within its share of GitHub’s limit, word diffs included, and counts what it left out', () => {
    const edits = Array.from({ length: 10_000 }, (_, index) => {
      const change = planOfEdit(shape({ content: `${index} ${LONG_BEFORE}` }), shape({ content: `${index} ${LONG_AFTER}` })).changes[0]!;
      return { ...change, key: `post-${index}` } as Change;
    });
    const text = String(renderPlanMarkdown(planOf(edits), { label: 'Target: local', timezone: 'UTC', maxBytes: PLAN_SUMMARY_BUDGET }));
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(PLAN_SUMMARY_BUDGET);
    expect(text).toContain('<del>nine</del><ins>ten</ins>');
    expect(text.match(/more changes not shown/g)?.length).toBe(2);
  }, 60_000);
});
