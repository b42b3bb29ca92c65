import { readFile } from 'node:fs/promises';
import type { Capabilities, Post } from '../../src/api/types.js';
import { buildCalendarModel, type CalendarInput } from '../../src/calendar/build-model.js';
import type { CalendarModel, CalendarPost } from '../../src/calendar/model.js';
import { captionsOf, postCard, type PostCard } from '../../src/calendar/post-card.js';
import { zonePlacer } from '../../src/calendar/zone-placer.js';
import type { DesiredPost } from '../../src/content/types.js';
import { createPlan } from '../../src/plan/planner.js';
import { livePostsById } from '../../src/plan/plan-context.js';
import { stateSectionHash } from '../../src/state/state-file.js';
import type { ProjectState } from '../../src/state/types.js';
import { desired, PHOTO, shape, SHORT, state, TARGET } from '../helpers/fixtures.js';

/** What calendar tests build beyond the shared builders (test/helpers/fixtures.ts): models, cards, pages. */

export const NOW = new Date('2026-11-20T12:00:00Z');
/** The aliases of the calendar tests' project: its posts name their accounts by these. */
const ALIASES = { 'brand-photo': PHOTO, 'brand-short': SHORT };

/** A post as read from a project with ALIASES: a target the builder labelled by its account id is labelled by its alias. */
function withAliases(post: DesiredPost): DesiredPost {
  const aliasOf = (id: string) => Object.entries(ALIASES).find(([, account]) => account === id)?.[0];
  return { ...post, targetLabels: post.shape.targets.map((target, index) => (post.targetLabels[index] === target.socialAccountId ? aliasOf(target.socialAccountId) : undefined) ?? post.targetLabels[index]!) };
}

export function capabilities(id: string, caption: Capabilities['rules']['caption']): Capabilities {
  return {
    account: { id, platform: id === PHOTO ? 'photoC' : 'shortB', status: 'active' },
    supported: true,
    available: true,
    requiredPermissions: { discover: [], draft: [], schedule: [], publish: [], upload: [] },
    rules: { caption, attachments: { min: 0, max: 10, maxVideos: 1, storyMax: 1, allowMixed: true }, options: {}, media: { images: { contentTypes: [], maxBytes: 1 }, videos: { contentTypes: [], maxBytes: 1, minDurationSeconds: 0, maxDurationSeconds: 1 } } } as unknown as Capabilities['rules'],
  };
}

/** The cards of posts read in full (no media probed), as read-cards.ts makes them. */
export function cardsOf(posts: readonly DesiredPost[], options: { timezone?: string; capabilities?: ReadonlyMap<string, Capabilities> } = {}): PostCard[] {
  const context = { place: zonePlacer(options.timezone ?? 'Europe/Berlin'), captions: captionsOf(options.capabilities ?? new Map()), probes: new Map() };
  return posts.map((post) => postCard(withAliases(post), context));
}

/** A calendar as the command makes it: the real planner over these posts, remote posts and state. */
export function calendarFor(input: { posts: DesiredPost[]; remote?: Post[]; owned?: ProjectState } & Partial<Omit<CalendarInput, 'cards' | 'kept'>>): CalendarModel {
  const { posts: written, remote, owned, ...rest } = input;
  const posts = written.map(withAliases);
  const section = owned ?? state();
  const livePosts = remote ?? [];
  const available = { supported: true, available: true } as Capabilities;
  const plan = createPlan({
    project: TARGET,
    desired: { posts, held: [], invalid: [], contentDiagnostics: [], checkDiagnostics: [] },
    remote: { live: livePostsById(livePosts), capabilities: new Map([[PHOTO, available], [SHORT, available]]) },
    state: { section, hash: stateSectionHash(section) },
    prune: false,
    now: NOW,
    timezone: 'Europe/Berlin',
  });
  const byId = new Map(livePosts.map((post) => [post.id, post]));
  return buildCalendarModel({
    now: NOW,
    timezone: 'Europe/Berlin',
    aliases: ALIASES,
    target: 'Target: local API (embedded)',
    plan,
    live: { get: (id) => byId.get(id), briefs: byId },
    state: section,
    capabilities: new Map(),
    diagnostics: [],
    mediaPrefix: 'media/',
    cards: cardsOf(posts, rest),
    ...rest,
  });
}

/** The post most calendar tests show: `launch`, on Wednesday 3 February 2027 at 09:00 in Berlin. */
export function launchDay(text = 'Launch day'): DesiredPost {
  return desired('launch', shape({ content: text, scheduledAt: '2027-02-03T08:00:00.000Z' }));
}

/** One server-sent event's block (its lines up to the blank one): its name, id and data; null for a comment or the `retry` line. */
export function sseEventOf(block: string): { name: string; id: string; data: unknown } | null {
  const fields = new Map(block.split('\n').map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 2)]));
  return fields.has('event') ? { name: fields.get('event')!, id: fields.get('id')!, data: JSON.parse(fields.get('data')!) } : null;
}

/** A post file scheduled at `scheduledAt` (the project's clock) on the `photo` account, with the example cover image. */
export function photoPostFile(scheduledAt: string, body: string): string {
  return `---\nscheduledAt: ${scheduledAt}\ntargets: [photo]\nmedia: [media/cover.png]\n---\n${body}\n`;
}

/** The calendar a written page holds (its JSON islands, the first view's and the rest), its posts shown as the page shows them. */
export async function writtenPageModel(page: string): Promise<CalendarModel<CalendarPost>> {
  return pageModel(await readFile(page, 'utf8'));
}

/** The calendar a page's HTML holds (see writtenPageModel). */
export function pageModel(html: string): CalendarModel<CalendarPost> {
  const model = JSON.parse(new RegExp('<script type="application/json" id="calendar-data">(.*?)</script>', 's').exec(html)![1]!) as CalendarModel;
  const rest = [...html.matchAll(/<script type="application\/json" id="calendar-rest-\d+">(.*?)<\/script>/gs)].flatMap((match) => JSON.parse(match[1]!) as CalendarPost[]);
  return { ...model, posts: [...model.posts, ...rest] };
}
