import { type CalendarModel, type CalendarPost, type Overlay, type Slot } from '../calendar/model.js';
import { slotText } from '../calendar/zone-placer.js';
import { dayTitle, isoWeek, mondayOf } from '../zoned-time/index.js';
import { inlineCode, markdownText, withinBytes } from '../text/markdown.js';
import { detailsMarkdown } from '../text/word-diff-markdown.js';
import { mediaLine, textDiffLine } from './change-details.js';

const SIGN: Record<Overlay, string> = { new: '➕ new', moved: '🔀 moved', changed: '✏️ changed', renamed: '↪️ renamed', deleted: '➖ deleted', unscheduled: '➖ unscheduled', blocked: '⛔ blocked' };
const EXCERPT = 90;

/** The posts a calendar diff lists: those the plan touches. */
export function changedPosts(model: CalendarModel): CalendarPost[] {
  return model.posts.filter((post) => post.overlay !== null);
}

/**
 * The plan as a calendar diff in GitHub Markdown: a loud line first when posts would be deleted
 * or unscheduled, then each week the plan touches (in the project's time zone) with what is added,
 * moved, changed and removed there; unscheduled posts last. Stays within `maxBytes` (UTF-8) by
 * leaving out whole weeks at the end, and says what it left out.
 */
export function renderCalendarDiff(model: CalendarModel, options: { maxBytes: number; title?: string; footer?: string }): string {
  const posts = changedPosts(model);
  const head = [`### ${options.title ?? 'postsync calendar'}`, ''];
  if (posts.length === 0) return [...head, 'No posts change on the calendar.', ''].join('\n');
  head.push(`${countsLine(posts)} · times in ${markdownText(model.timezone)}`, '');
  const loud = loudLine(posts);
  if (loud !== null) head.push(loud, '');

  const weeks = byWeek(posts);
  const drafts = posts.filter((post) => post.slot === null && post.previous === null);
  const labels = new Map(model.accounts.map((account) => [account.id, account.label]));
  const sections = [...weeks].sort(([a], [b]) => (a < b ? -1 : 1)).map(([monday, rows]) => weekSection(monday, rows, labels));
  if (drafts.length > 0) sections.push(['#### Unscheduled', '', ...table(drafts.map((post) => ({ post, when: 'no time', lands: true }))), '', ...postDetails(drafts, labels)].join('\n'));

  const footer = options.footer === undefined ? '' : `\n${options.footer}\n`;
  return withinBytes({ head: head.join('\n'), parts: sections.map((section) => `\n${section}`), tail: footer, maxBytes: options.maxBytes, cutNote: (left) => cutNote(left, posts.length) });
}

function countsLine(posts: readonly CalendarPost[]): string {
  const counts = new Map<Overlay, number>();
  for (const post of posts) counts.set(post.overlay!, (counts.get(post.overlay!) ?? 0) + 1);
  const weeks = new Set(posts.flatMap((post) => [post.slot, post.previous].filter((slot): slot is Slot => slot !== null).map((slot) => mondayOf(slot.day))));
  const parts = [...counts].map(([overlay, count]) => `${count} ${overlay}`);
  return `**${weeks.size} week${weeks.size === 1 ? '' : 's'} touched:** ${parts.join(', ')}`;
}

/** The line no reviewer may miss: posts that would leave the calendar. */
function loudLine(posts: readonly CalendarPost[]): string | null {
  const deleted = posts.filter((post) => post.overlay === 'deleted');
  const unscheduled = posts.filter((post) => post.overlay === 'unscheduled');
  const parts = [
    deleted.length > 0 ? `**${deleted.length} post${deleted.length === 1 ? '' : 's'} would be deleted** (${keys(deleted)})` : null,
    unscheduled.length > 0 ? `**${unscheduled.length} post${unscheduled.length === 1 ? '' : 's'} would be unscheduled** (${keys(unscheduled)})` : null,
  ].filter((part): part is string => part !== null);
  return parts.length === 0 ? null : `> [!CAUTION]\n> ${parts.join('; ')}.`;
}

function keys(posts: readonly CalendarPost[]): string {
  const shown = posts.slice(0, 5).map((post) => inlineCode(post.key));
  return posts.length > 5 ? `${shown.join(', ')} and ${posts.length - 5} more` : shown.join(', ');
}

interface Row {
  post: CalendarPost;
  when: string;
  /** The row of the week the post is in after the plan (a moved post has another row in the week it leaves). */
  lands: boolean;
}

/** Each changed post under the week of its time, and a moved post also under the week it leaves. */
function byWeek(posts: readonly CalendarPost[]): Map<string, Row[]> {
  const weeks = new Map<string, Row[]>();
  const add = (slot: Slot, row: Row) => weeks.set(mondayOf(slot.day), [...(weeks.get(mondayOf(slot.day)) ?? []), row]);
  for (const post of posts) {
    if (post.slot !== null) add(post.slot, { post, lands: true, when: post.previous === null ? slotText(post.slot) : `${slotText(post.previous)} → **${slotText(post.slot)}**` });
    if (post.previous !== null && (post.slot === null || mondayOf(post.previous.day) !== mondayOf(post.slot.day))) {
      add(post.previous, { post, lands: post.slot === null, when: post.slot === null ? `~~${slotText(post.previous)}~~ → no time` : `${slotText(post.previous)} → ${slotText(post.slot)} (another week)` });
    }
  }
  return weeks;
}

function weekSection(monday: string, rows: readonly Row[], labels: ReadonlyMap<string, string>): string {
  const sunday = new Date(`${monday}T00:00:00Z`);
  sunday.setUTCDate(sunday.getUTCDate() + 6);
  const title = `#### ${isoWeek(monday)}: ${dayTitle(monday)} – ${dayTitle(sunday.toISOString().slice(0, 10))}`;
  return [title, '', ...table(rows), '', ...postDetails(rows.filter((row) => row.lands).map((row) => row.post), labels)].join('\n');
}

/** An update that changes more than the post's time: moved (or added, unscheduled) and edited in one. */
function editedToo(post: CalendarPost): boolean {
  return post.overlay !== 'changed' && post.change?.action === 'update' && post.change.fields.some((field) => field.field !== 'scheduledAt');
}

/** The collapsed word diffs and media changes of these posts, one `<details>` each (none for a post with neither). */
function postDetails(posts: readonly CalendarPost[], labels: ReadonlyMap<string, string>): string[] {
  return posts.flatMap((post) => {
    const lines = [
      ...(post.change?.texts ?? []).map((text) => textDiffLine(text.account === undefined ? '**content**' : `**content for ${markdownText(labels.get(text.account) ?? text.account)}**`, text.hunks)),
      ...(post.change?.media?.length ? [mediaLine(post.change.media)] : []),
    ];
    return lines.length === 0 ? [] : [detailsMarkdown(`✏️ ${inlineCode(post.key)}: what changes`, lines)];
  });
}

function table(rows: readonly Row[]): string[] {
  return [
    '| | When | Post | Accounts | Text |',
    '|---|---|---|---|---|',
    ...rows.map(({ post, when: time }) => {
      const accounts = post.targets.map((target) => markdownText(target.label)).join(', ') || '—';
      const edited = editedToo(post);
      const why = edited || post.overlay === 'blocked' || post.overlay === 'changed' || post.overlay === 'renamed' ? `<br>${markdownText(post.change?.reasons.join('; ') ?? '')}` : '';
      return `| ${SIGN[post.overlay!]}${edited ? `, ${SIGN.changed}` : ''} | ${time} | ${inlineCode(post.key, { table: true })} | ${accounts} | ${markdownText(excerpt(post.text))}${why} |`;
    }),
  ];
}


function excerpt(text: string): string {
  const line = text.split('\n').find((part) => part.trim() !== '')?.trim() ?? '';
  const chars = [...line];
  return chars.length > EXCERPT ? `${chars.slice(0, EXCERPT - 1).join('')}…` : line;
}

function cutNote(left: number, total: number): string {
  return `\n_…and ${left} more section${left === 1 ? '' : 's'} not shown: GitHub limits this text, so it stops here (${total} changed posts in all). The calendar page shows every one._\n`;
}
