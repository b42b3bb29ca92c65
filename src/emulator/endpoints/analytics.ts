import { createHash } from 'node:crypto';
import type { AnalyticsItem } from '../../api/types.js';
import { requirePermission } from '../http/auth.js';
import type { ApiCall, Route } from '../http/context.js';
import { ok, type Reply } from '../protocol/envelope.js';
import type { Project } from '../store/store.js';
import { Violations, checkQueryNames, integerParam, isUuid, parseRfc3339, platformParam } from '../protocol/validate.js';

const PARAMS = ['from', 'to', 'accountId', 'platform', 'limit', 'cursor'];
const VIDEO_PLATFORMS = ['vidA', 'shortB'];

/** Stable pseudo-random metrics from the post and account ids: the same numbers on every call. */
type Metrics = Pick<AnalyticsItem, 'impressions' | 'reach' | 'likes' | 'comments' | 'shares' | 'clicks' | 'videoViews'>;

function metrics(postId: string, accountId: string, platform: string): Metrics {
  const digest = createHash('sha256').update(`${postId}/${accountId}`).digest();
  const n = (offset: number, mod: number): number => digest.readUInt32BE(offset) % mod;
  const impressions = 200 + n(0, 50_000);
  const reach = Math.floor(impressions * (0.5 + n(4, 50) / 100));
  const item = { impressions, reach, likes: n(8, Math.max(1, Math.floor(reach / 10))), comments: n(12, 200), shares: n(16, 300), clicks: n(20, 1000) };
  return VIDEO_PLATFORMS.includes(platform) ? { ...item, videoViews: Math.floor(impressions * (0.3 + n(24, 60) / 100)) } : item;
}

/** The filters a cursor is bound to; a cursor used with other filters is refused. */
const filterFingerprint = (query: URLSearchParams): string =>
  createHash('sha256').update(['from', 'to', 'accountId', 'platform'].map((name) => `${name}=${query.get(name) ?? ''}`).join('&')).digest('base64url').slice(0, 12);

interface Cursor {
  offset: number;
  filters: string;
}

const encodeCursor = (cursor: Cursor): string => Buffer.from(JSON.stringify(cursor)).toString('base64url');

function decodeCursor(raw: string): Cursor | undefined {
  try {
    const value = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as Cursor;
    return Number.isInteger(value.offset) && value.offset >= 0 && typeof value.filters === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

const byPublication = (a: AnalyticsItem, b: AnalyticsItem): number =>
  a.publishedAt < b.publishedAt ? 1 : a.publishedAt > b.publishedAt ? -1 : a.postId.localeCompare(b.postId) || a.socialAccountId.localeCompare(b.socialAccountId);

/** Every published post/account pair of a project in page order, rebuilt only after posts changed. */
const cache = new WeakMap<Project, { revision: number; items: AnalyticsItem[] }>();

function publishedPairs(project: Project): AnalyticsItem[] {
  const cached = cache.get(project);
  if (cached?.revision === project.revision) return cached.items;
  const items: AnalyticsItem[] = [];
  for (const post of project.posts.values()) {
    for (const target of post.targets) {
      if (target.status !== 'published' || !target.publishedAt || !target.externalPostId) continue;
      items.push({
        postId: post.id,
        socialAccountId: target.socialAccountId,
        platform: target.platform,
        externalPostId: target.externalPostId,
        publishedAt: target.publishedAt,
        ...metrics(post.id, target.socialAccountId, target.platform),
      });
    }
  }
  items.sort(byPublication);
  cache.set(project, { revision: project.revision, items });
  return items;
}

/**
 * GET /analytics/posts: one item per published post/account pair, newest publication first
 * (ties: postId, then socialAccountId). Filters: `from` (inclusive) and `to` (exclusive) on
 * publishedAt, `accountId`, `platform`; `limit` 1..100 (default 50); `cursor` is opaque.
 */
function analytics(call: ApiCall): Reply {
  requirePermission(call.caller, 'posts-read');
  const { query } = call;
  const violations = new Violations();
  checkQueryNames(query, PARAMS, violations);
  const limit = integerParam(query.get('limit'), 'limit', { min: 1, max: 100, fallback: 50 }, violations);
  const bound = (name: string): number | undefined => {
    const raw = query.get(name);
    if (raw === null) return undefined;
    const ms = parseRfc3339(raw);
    if (ms === null) violations.add(`${name} must be an RFC 3339 date-time with Z or an offset`);
    return ms ?? undefined;
  };
  const from = bound('from');
  const to = bound('to');
  const accountId = query.get('accountId');
  if (accountId !== null && !isUuid(accountId)) violations.add('accountId must be a uuid');
  const platform = platformParam(query.get('platform'), violations);
  let offset = 0;
  const rawCursor = query.get('cursor');
  if (rawCursor !== null) {
    const cursor = decodeCursor(rawCursor);
    if (!cursor) violations.add('cursor is not a cursor this endpoint returned');
    else if (cursor.filters !== filterFingerprint(query)) violations.add('cursor was issued for other filters; keep from, to, accountId and platform unchanged between pages');
    else offset = cursor.offset;
  }
  violations.throwIfAny();

  const pairs = publishedPairs(call.project).filter(
    (item) =>
      (from === undefined || Date.parse(item.publishedAt) >= from) &&
      (to === undefined || Date.parse(item.publishedAt) < to) &&
      (accountId === null || item.socialAccountId === accountId.toLowerCase()) &&
      (platform === null || item.platform === platform),
  );
  const items = pairs.slice(offset, offset + limit);
  const next = offset + items.length;
  return ok({ items, nextCursor: next < pairs.length ? encodeCursor({ offset: next, filters: filterFingerprint(query) }) : null });
}

export const analyticsRoutes: Route[] = [{ method: 'GET', path: '/analytics/posts', handler: analytics }];
