import type { Capabilities, Post } from '../../src/api/types.js';
import { buildCalendarModel, type CalendarInput } from '../../src/calendar/build-model.js';
import { readFile } from 'node:fs/promises';
import type { CalendarModel, CalendarPost } from '../../src/calendar/model.js';
import { captionsOf, postCard, type PostCard } from '../../src/calendar/post-card.js';
import { zonePlacer } from '../../src/calendar/zone-placer.js';
import type { DesiredPost, PostShape } from '../../src/content/types.js';
import { createPlan } from '../../src/plan/planner.js';
import type { PlanTarget } from '../../src/plan/types.js';
import { shapeHash } from '../../src/content/shape-hash.js';
import { livePostsById } from '../../src/plan/plan-context.js';
import { emptyTargetState, stateSectionHash } from '../../src/state/state-file.js';
import type { TargetState } from '../../src/state/types.js';

export const PHOTO = '6f1c2d6e-0a55-4c59-9d0f-3b8f5d1a7e01';
export const SHORT = '8b3e4f50-2c77-4e7b-9f20-5dab7f3c9a03';
export const TARGET: PlanTarget = { id: 'local:demo', apiUrl: 'local', projectId: 'demo', local: true };
export const NOW = new Date('2026-11-20T12:00:00Z');

export function shape(overrides: Partial<PostShape> = {}): PostShape {
  return { content: 'Hello', scheduledAt: null, targets: [{ socialAccountId: PHOTO, options: {} }], media: [], ...overrides };
}

export function desired(key: string, postShape: PostShape): DesiredPost {
  return { key, file: `posts/${key}.md`, shape: postShape, shapeHash: shapeHash(postShape), fingerprint: `${key}:${shapeHash(postShape)}`, media: [], targetLabels: postShape.targets.map((t) => (t.socialAccountId === PHOTO ? 'brand-photo' : 'brand-short')) };
}

/** The remote post of a shape, as the service returns it. */
export function live(id: string, postShape: PostShape, overrides: Partial<Post> = {}): Post {
  return {
    id,
    status: postShape.scheduledAt === null ? 'draft' : 'scheduled',
    content: postShape.content,
    scheduledAt: postShape.scheduledAt,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-02T00:00:00.000Z',
    targets: postShape.targets.map((t) => ({ socialAccountId: t.socialAccountId, platform: 'photoC', handle: '@demo.photo', options: { ...t.options }, status: 'pending', ...(t.contentOverride === undefined ? {} : { contentOverride: t.contentOverride }) })),
    media: [],
    ...overrides,
  };
}

/** A state section owning `posts` (key → [post id, the shape last applied]). */
export function owning(posts: Record<string, [string, PostShape]>): TargetState {
  const section = emptyTargetState(TARGET);
  for (const [key, [postId, applied]] of Object.entries(posts)) {
    section.posts[key] = { postId, file: `posts/${key}.md`, appliedHash: shapeHash(applied), remoteUpdatedAt: '2026-01-02T00:00:00.000Z', appliedAt: '2026-01-02T00:00:00.000Z' };
  }
  return section;
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
  return posts.map((post) => postCard(post, context));
}

/** A calendar as the command makes it: the real planner over these posts, remote posts and state. */
export function calendarFor(input: { posts: DesiredPost[]; remote?: Post[]; owned?: TargetState } & Partial<Omit<CalendarInput, 'cards' | 'kept'>>): CalendarModel {
  const { posts, remote, owned, ...rest } = input;
  const section = owned ?? emptyTargetState(TARGET);
  const livePosts = remote ?? [];
  const available = { supported: true, available: true } as Capabilities;
  const plan = createPlan({
    target: TARGET,
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
    aliases: { 'brand-photo': PHOTO, 'brand-short': SHORT },
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
