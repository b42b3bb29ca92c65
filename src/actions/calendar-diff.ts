import { type CalendarChange, type CalendarModel, type CalendarPost, type Overlay, type Slot } from '../calendar/model.js';
import { slotText } from '../calendar/zone-placer.js';
import { dayTitle, isoWeek, mondayOf } from '../zoned-time/index.js';
import { htmlImage, inlineCode, joinMarkdown, md, withinBytes, type Markdown } from '../text/markdown.js';
import { detailsMarkdown } from '../text/word-diff-markdown.js';
import { mediaLine, textDiffLine, textLabel } from './change-details.js';

const SIGN: Record<Overlay, string> = { new: '➕ new', moved: '🔀 moved', changed: '✏️ changed', renamed: '↪️ renamed', deleted: '➖ deleted', unscheduled: '➖ unscheduled', blocked: '⛔ blocked' };
const EXCERPT = 90;
const THUMBNAIL_HEIGHT = 64;

/**
 * Where GitHub finds a post's pictures: the repository at the commit under review. GitHub's own
 * `blob/<commit>/<path>?raw=true` URL is fetched by the reader's browser with the reader's session,
 * so it shows in a private repository to those who may read it, and a fork's commit through the
 * pull request's repository.
 */
export interface PictureSource {
  /** `GITHUB_SERVER_URL`, e.g. https://github.com. */
  server: string;
  /** `owner/name`. */
  repository: string;
  commit: string;
  /** The calendar's folder in the repository ('' at its root): media paths are relative to it. */
  folder: string;
}

/** The posts a calendar diff lists: those the plan touches. */
export function changedPosts(model: CalendarModel): CalendarPost[] {
  return model.posts.filter((post) => post.overlay !== null);
}

/**
 * The plan as a calendar diff in GitHub Markdown: a loud line first when posts would be deleted
 * or unscheduled, then each week the plan touches (in the project's time zone) with what is added,
 * moved, changed and removed there; unscheduled posts last. Stays within `maxBytes` (UTF-8) by
 * leaving out whole weeks at the end, and says what it left out. With `pictures`, a post's new
 * pictures (all of a new post's, a changed post's added and replaced ones) show as thumbnails.
 */
export function renderCalendarDiff(model: CalendarModel, options: { maxBytes: number; title?: Markdown; footer?: Markdown; pictures?: PictureSource }): Markdown {
  const posts = changedPosts(model);
  const head = [md`### ${options.title ?? 'postsync calendar'}`, md``];
  if (posts.length === 0) return joinMarkdown([...head, md`No posts change on the calendar.`, md``], '\n');
  head.push(md`${countsLine(posts)} · times in ${model.timezone}`, md``);
  const loud = loudLine(posts);
  if (loud !== null) head.push(loud, md``);

  const weeks = byWeek(posts);
  const drafts = posts.filter((post) => post.slot === null && post.previous === null);
  const labels = new Map(model.accounts.map((account) => [account.id, account.label]));
  const pictures = options.pictures;
  const sections = [...weeks].sort(([a], [b]) => (a < b ? -1 : 1)).map(([monday, rows]) => weekSection(monday, rows, { labels, pictures }));
  if (drafts.length > 0) sections.push(joinMarkdown([md`#### Unscheduled`, md``, ...table(drafts.map((post) => ({ post, when: md`no time`, lands: true })), pictures), md``, ...postDetails(drafts, labels)], '\n'));

  const footer = options.footer === undefined ? md`` : md`\n${options.footer}\n`;
  return withinBytes({ head: joinMarkdown(head, '\n'), parts: sections.map((section) => md`\n${section}`), tail: footer, maxBytes: options.maxBytes, cutNote: (left) => cutNote(left, posts.length) });
}

function countsLine(posts: readonly CalendarPost[]): Markdown {
  const counts = new Map<Overlay, number>();
  for (const post of posts) counts.set(post.overlay!, (counts.get(post.overlay!) ?? 0) + 1);
  const weeks = new Set(posts.flatMap((post) => [post.slot, post.previous].filter((slot): slot is Slot => slot !== null).map((slot) => mondayOf(slot.day))));
  const parts = [...counts].map(([overlay, count]) => `${count} ${overlay}`);
  return md`**${weeks.size} week${weeks.size === 1 ? '' : 's'} touched:** ${parts.join(', ')}`;
}

/** The line no reviewer may miss: posts that would leave the calendar. */
function loudLine(posts: readonly CalendarPost[]): Markdown | null {
  const deleted = posts.filter((post) => post.overlay === 'deleted');
  const unscheduled = posts.filter((post) => post.overlay === 'unscheduled');
  const parts = [
    deleted.length > 0 ? md`**${deleted.length} post${deleted.length === 1 ? '' : 's'} would be deleted** (${keys(deleted)})` : null,
    unscheduled.length > 0 ? md`**${unscheduled.length} post${unscheduled.length === 1 ? '' : 's'} would be unscheduled** (${keys(unscheduled)})` : null,
  ].filter((part): part is Markdown => part !== null);
  return parts.length === 0 ? null : md`> [!CAUTION]\n> ${joinMarkdown(parts, '; ')}.`;
}

function keys(posts: readonly CalendarPost[]): Markdown {
  const shown = joinMarkdown(posts.slice(0, 5).map((post) => inlineCode(post.key)), ', ');
  return posts.length > 5 ? md`${shown} and ${posts.length - 5} more` : shown;
}

interface Row {
  post: CalendarPost;
  when: Markdown;
  /** The row of the week the post is in after the plan (a moved post has another row in the week it leaves). */
  lands: boolean;
}

/** Each changed post under the week of its time, and a moved post also under the week it leaves. */
function byWeek(posts: readonly CalendarPost[]): Map<string, Row[]> {
  const weeks = new Map<string, Row[]>();
  const add = (slot: Slot, row: Row) => weeks.set(mondayOf(slot.day), [...(weeks.get(mondayOf(slot.day)) ?? []), row]);
  for (const post of posts) {
    if (post.slot !== null) add(post.slot, { post, lands: true, when: post.previous === null ? md`${slotText(post.slot)}` : md`${slotText(post.previous)} → **${slotText(post.slot)}**` });
    if (post.previous !== null && (post.slot === null || mondayOf(post.previous.day) !== mondayOf(post.slot.day))) {
      add(post.previous, { post, lands: post.slot === null, when: post.slot === null ? md`~~${slotText(post.previous)}~~ → no time` : md`${slotText(post.previous)} → ${slotText(post.slot)} (another week)` });
    }
  }
  return weeks;
}

function weekSection(monday: string, rows: readonly Row[], { labels, pictures }: { labels: ReadonlyMap<string, string>; pictures: PictureSource | undefined }): Markdown {
  const sunday = new Date(`${monday}T00:00:00Z`);
  sunday.setUTCDate(sunday.getUTCDate() + 6);
  const title = md`#### ${isoWeek(monday)}: ${dayTitle(monday)} – ${dayTitle(sunday.toISOString().slice(0, 10))}`;
  return joinMarkdown([title, md``, ...table(rows, pictures), md``, ...postDetails(rows.filter((row) => row.lands).map((row) => row.post), labels)], '\n');
}

/** The collapsed word diffs and media changes of these posts, one `<details>` each (none for a post with neither). */
function postDetails(posts: readonly CalendarPost[], labels: ReadonlyMap<string, string>): Markdown[] {
  return posts.flatMap((post) => {
    const lines = [
      ...(post.change?.texts ?? []).map((text) => textDiffLine(textLabel(text.account, labels), text.hunks)),
      ...(post.change?.media?.length ? [mediaLine(post.change.media)] : []),
    ];
    return lines.length === 0 ? [] : [detailsMarkdown(md`✏️ ${inlineCode(post.key)}: what changes`, lines)];
  });
}

function table(rows: readonly Row[], pictures: PictureSource | undefined): Markdown[] {
  return [
    md`| | When | Post | Accounts | Text |`,
    md`|---|---|---|---|---|`,
    ...rows.map(({ post, when: time, lands }) => {
      const labels = joinMarkdown(post.targets.map((target) => md`${target.label}`), ', ');
      const accounts = labels.toString() === '' ? md`—` : labels;
      const why = post.overlay === 'blocked' || post.overlay === 'changed' || post.overlay === 'renamed' ? md`<br>${post.change?.reasons.join('; ') ?? ''}` : md``;
      const edited = editedBesides(post);
      const sign = edited.length > 0 ? `${SIGN[post.overlay!]}, ${SIGN.changed}` : SIGN[post.overlay!];
      const thumbnails = pictures === undefined || !lands ? md`` : thumbnailsOf(post, pictures);
      return md`| ${sign} | ${time} | ${inlineCode(post.key, { table: true })} | ${accounts} | ${excerpt(post.text)}${why}${alsoChanged(edited)}${thumbnails} |`;
    }),
  ];
}

/** `<br>` and a thumbnail of each picture the post brings (a new post's all, a changed post's added and replaced ones), or nothing. */
function thumbnailsOf(post: CalendarPost, pictures: PictureSource): Markdown {
  const brought = post.overlay === 'new' ? null : new Set((post.change?.media ?? []).flatMap((delta) => (delta.kind === 'added' ? [delta.file.path] : delta.kind === 'replaced' ? [delta.after.path] : [])));
  const shown = post.media.filter((media) => media.kind === 'image' && media.remote !== true && (brought === null || brought.has(media.path)));
  if (shown.length === 0) return md``;
  const images = shown.map((media) => htmlImage({ src: pictureUrl(pictures, media.path), alt: media.path, height: THUMBNAIL_HEIGHT }));
  return md`<br>${joinMarkdown(images, '')}`;
}

function pictureUrl({ server, repository, commit, folder }: PictureSource, path: string): string {
  const segments = [...folder.split('/'), ...path.split('/')].filter((segment) => segment !== '').map(encodeURIComponent);
  return `${server.replace(/\/+$/, '')}/${repository.split('/').map(encodeURIComponent).join('/')}/blob/${encodeURIComponent(commit)}/${segments.join('/')}?raw=true`;
}

/** What a moved or unscheduled post's change edits besides its time: the calendar shows the move, and must not hide the edit. */
function editedBesides(post: CalendarPost): CalendarChange['fields'] {
  if (post.overlay !== 'moved' && post.overlay !== 'unscheduled') return [];
  return (post.change?.fields ?? []).filter((field) => field.field !== 'scheduledAt');
}

/** `<br>also changed: content; before: <del>the old text</del>`, or nothing. */
function alsoChanged(fields: CalendarChange['fields']): Markdown {
  if (fields.length === 0) return md``;
  const content = fields.find((field) => field.field === 'content');
  const before = content === undefined ? md`` : md`; before: <del>${excerpt(content.before)}</del>`;
  return md`<br>also changed: ${joinMarkdown(fields.map((field) => md`${field.field}`), ', ')}${before}`;
}

function excerpt(text: string): string {
  const line = text.split('\n').find((part) => part.trim() !== '')?.trim() ?? '';
  const chars = [...line];
  return chars.length > EXCERPT ? `${chars.slice(0, EXCERPT - 1).join('')}…` : line;
}

function cutNote(left: number, total: number): Markdown {
  return md`\n_…and ${left} more section${left === 1 ? '' : 's'} not shown: GitHub limits this text, so it stops here (${total} changed posts in all). The calendar page shows every one._\n`;
}
