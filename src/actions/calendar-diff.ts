import { builtPost, type CalendarEntry, type CalendarModel, type CalendarPost, type Overlay, type Slot } from '../calendar/model.js';
import { shownPost } from '../calendar/shown-post.js';
import { dayText, isoWeek, mondayOf } from '../calendar/zone-placer.js';

/** GitHub's limit for what one step appends to the job summary. */
export const STEP_SUMMARY_LIMIT = 1024 * 1024;
/** GitHub's limit for a comment's body (in characters; bytes are at least as many). */
export const COMMENT_LIMIT = 65_536;

const SIGN: Record<Overlay, string> = { new: '➕ new', moved: '🔀 moved', changed: '✏️ changed', renamed: '↪️ renamed', deleted: '➖ deleted', unscheduled: '➖ unscheduled', blocked: '⛔ blocked' };
const EXCERPT = 90;

/** The posts a calendar diff lists: those the plan touches. */
export function changedPosts(model: CalendarModel<CalendarEntry>): CalendarPost[] {
  return model.posts.filter((post) => post.overlay !== null).map((post) => shownPost(builtPost(post)));
}

/**
 * The plan as a calendar diff in GitHub Markdown: a loud line first when posts would be deleted
 * or unscheduled, then each week the plan touches (in the project's time zone) with what is added,
 * moved, changed and removed there; unscheduled posts last. Stays within `maxBytes` (UTF-8) by
 * leaving out whole weeks at the end, and says what it left out.
 */
export function renderCalendarDiff(model: CalendarModel<CalendarEntry>, options: { maxBytes: number; title?: string; footer?: string }): string {
  const posts = changedPosts(model);
  const head = [`### ${options.title ?? 'postsync calendar'}`, ''];
  if (posts.length === 0) return [...head, 'No posts change on the calendar.', ''].join('\n');
  head.push(`${countsLine(posts)} · times in ${escapeMarkdown(model.timezone)}`, '');
  const loud = loudLine(posts);
  if (loud !== null) head.push(loud, '');

  const weeks = byWeek(posts);
  const drafts = posts.filter((post) => post.slot === null && post.previous === null);
  const sections = [...weeks].sort(([a], [b]) => (a < b ? -1 : 1)).map(([monday, rows]) => weekSection(monday, rows));
  if (drafts.length > 0) sections.push(['#### Unscheduled', '', ...table(drafts.map((post) => ({ post, when: 'no time' }))), ''].join('\n'));

  const footer = options.footer === undefined ? '' : `\n${options.footer}\n`;
  let out = head.join('\n');
  let used = 0;
  for (const section of sections) {
    const cut = cutNote(sections.length - used, posts.length);
    if (bytes(out) + bytes(section) + bytes(cut) + bytes(footer) > options.maxBytes) {
      out += cut;
      return out + footer;
    }
    out += `\n${section}`;
    used++;
  }
  return out + footer;
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
  const shown = posts.slice(0, 5).map((post) => code(post.key));
  return posts.length > 5 ? `${shown.join(', ')} and ${posts.length - 5} more` : shown.join(', ');
}

interface Row {
  post: CalendarPost;
  when: string;
}

/** Each changed post under the week of its time, and a moved post also under the week it leaves. */
function byWeek(posts: readonly CalendarPost[]): Map<string, Row[]> {
  const weeks = new Map<string, Row[]>();
  const add = (slot: Slot, row: Row) => weeks.set(mondayOf(slot.day), [...(weeks.get(mondayOf(slot.day)) ?? []), row]);
  for (const post of posts) {
    if (post.slot !== null) add(post.slot, { post, when: post.previous === null ? when(post.slot) : `${when(post.previous)} → **${when(post.slot)}**` });
    if (post.previous !== null && (post.slot === null || mondayOf(post.previous.day) !== mondayOf(post.slot.day))) {
      add(post.previous, { post, when: post.slot === null ? `~~${when(post.previous)}~~ → no time` : `${when(post.previous)} → ${when(post.slot)} (another week)` });
    }
  }
  return weeks;
}

function weekSection(monday: string, rows: readonly Row[]): string {
  const sunday = new Date(`${monday}T00:00:00Z`);
  sunday.setUTCDate(sunday.getUTCDate() + 6);
  const title = `#### ${isoWeek(monday)}: ${dayText(monday)} – ${dayText(sunday.toISOString().slice(0, 10))}`;
  return [title, '', ...table(rows), ''].join('\n');
}

function table(rows: readonly Row[]): string[] {
  return [
    '| | When | Post | Accounts | Text |',
    '|---|---|---|---|---|',
    ...rows.map(({ post, when: time }) => {
      const accounts = post.targets.map((target) => escapeMarkdown(target.label)).join(', ') || '—';
      const why = post.overlay === 'blocked' || post.overlay === 'changed' || post.overlay === 'renamed' ? `<br>${escapeMarkdown(post.change?.reasons.join('; ') ?? '')}` : '';
      return `| ${SIGN[post.overlay!]} | ${time} | ${code(post.key)} | ${accounts} | ${escapeMarkdown(excerpt(post.text))}${why} |`;
    }),
  ];
}

function when(slot: Slot): string {
  return `${dayText(slot.day).replace(/ \d{4}$/, '')} ${slot.time}`;
}

function excerpt(text: string): string {
  const line = text.split('\n').find((part) => part.trim() !== '')?.trim() ?? '';
  const chars = [...line];
  return chars.length > EXCERPT ? `${chars.slice(0, EXCERPT - 1).join('')}…` : line;
}

function cutNote(left: number, total: number): string {
  return `\n_…and ${left} more section${left === 1 ? '' : 's'} not shown: GitHub limits this text, so it stops here (${total} changed posts in all). The calendar page shows every one._\n`;
}

function bytes(text: string): number {
  return Buffer.byteLength(text);
}

/**
 * Text for a Markdown table cell: the punctuation that means something inside a line escaped
 * (emphasis, code, links, the cell separator), `<`, `>` and `&` as entities (GitHub would read
 * them as HTML), line breaks as spaces, so a caption never changes the layout.
 */
export function escapeMarkdown(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/[\\`*_[\]|~]/g, (char) => `\\${char}`)
    .replace(/\r?\n/g, ' ');
}

/** Inline code that holds any text: fenced with more backticks than it contains, `|` escaped for tables. */
export function code(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const padded = text.startsWith('`') || text.endsWith('`') ? ` ${text} ` : text;
  return `${fence}${padded.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ')}${fence}`;
}
