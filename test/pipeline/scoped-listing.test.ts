import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApiError, type ListPostsQuery, type Page, type Post } from '../../src/api/index.js';
import { listLivePosts } from '../../src/pipeline/live-listing.js';
import { completeScopedListing, listOpenPosts } from '../../src/pipeline/scoped-listing.js';
import type { Capabilities } from '../../src/api/types.js';
import { shapeHash } from '../../src/content/shape-hash.js';
import { planPosts } from '../../src/plan/plan-posts.js';
import type { LivePostsById } from '../../src/plan/types.js';
import { stateSectionHash } from '../../src/state/state-file.js';
import type { PostRecord } from '../../src/state/types.js';
import { PHOTO, TARGET, desired, shape, state } from '../helpers/fixtures.js';

/** Known statuses, and ones postsync does not know (the spec's list is open). */
const STATUSES = ['draft', 'scheduled', 'published', 'publishing', 'failed', 'partially_published', 'archived'] as const;

function post(index: number, status: string, edits: number): Post {
  const created = new Date(Date.UTC(2025, 0, 1) + index * 60_000).toISOString();
  return {
    id: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
    status,
    content: `post ${index}`,
    scheduledAt: status === 'draft' ? null : created,
    createdAt: created,
    updatedAt: new Date(Date.parse(created) + edits * 1000).toISOString(),
    targets: [],
    media: [],
  } as unknown as Post;
}

/**
 * The remote of a world, read the way the API reads it: GET /posts with the status filter, the
 * oldest/newest sorts and cursors; GET /posts/{id} with 404 for a deleted post. Counts requests.
 */
function remoteOf(posts: readonly Post[]) {
  let requests = 0;
  const page = (query: ListPostsQuery): Page<Post> => {
    const matching = posts.filter((p) => query.status === undefined || p.status === query.status);
    const ordered = query.sort === 'newest' ? [...matching].reverse() : matching;
    const start = query.after === undefined ? 0 : ordered.findIndex((p) => p.id === query.after) + 1;
    const items = ordered.slice(start, start + (query.limit ?? 50));
    const more = start + items.length < ordered.length;
    return { items, nextCursor: more ? items.at(-1)!.id : null };
  };
  return {
    requests: () => requests,
    async listPostsPage(query: ListPostsQuery) {
      requests += 1;
      return page(query);
    },
    async getPost(id: string): Promise<Post> {
      requests += 1;
      const found = posts.find((p) => p.id === id);
      if (found === undefined) throw new ApiError({ status: 404, code: 'not_found', messages: ['not found'], method: 'GET', path: `/posts/${id}`, operation: 'reading a post', attempts: 1 });
      return structuredClone(found);
    },
  };
}

const NOW = new Date('2026-06-01T00:00:00.000Z');
const capabilities = new Map([[PHOTO, { available: true, supported: true } as Capabilities]]);
/** The post as its file was applied. */
const appliedShape = (key: string) => shape({ content: `applied ${key}` });

/** A post of the world: its status now, whether postsync owns it, and what happened since the last apply. */
const worldPost = fc.record({
  status: fc.constantFrom(...STATUSES),
  owned: fc.boolean(),
  /** Published at the last apply, and recorded `final` then. */
  recordedFinal: fc.boolean(),
  deleted: fc.boolean(),
  edited: fc.boolean(),
  /** Its file changed since (the planner then needs the post in full). */
  fileChanged: fc.boolean(),
});

describe('the scoped remote read', () => {
  it('gives every owned post the planner can look up exactly as the full listing does, and so the same whole plan', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(worldPost, { maxLength: 260 }), fc.nat({ max: 400 }), async (world, history) => {
        const posts: Post[] = [];
        const records: Record<string, PostRecord> = {};
        const changedFiles = new Set<string>();
        // History: published posts nobody here owns, listed before the calendar.
        for (let i = 0; i < history; i += 1) posts.push(post(i, 'published', 0));
        world.forEach((shape, n) => {
          const index = history + n;
          // A post recorded final stays published and unedited: postsync never changes it, and the remote cannot unpublish.
          const final = shape.owned && shape.recordedFinal;
          const live = post(index, final ? 'published' : shape.status, !final && shape.edited ? 1 : 0);
          if (!shape.deleted || final) posts.push(live);
          if (!shape.owned) return;
          const key = `post-${index}`;
          records[key] = { postId: live.id, file: `${key}.md`, appliedHash: shapeHash(appliedShape(key)), remoteUpdatedAt: post(index, 'draft', 0).updatedAt, appliedAt: live.createdAt, ...(final ? { final: 'published' } : {}) };
          if (shape.fileChanged) changedFiles.add(key);
        });
        const remote = remoteOf(posts);
        const full = await listLivePosts(remote);
        const before = remote.requests();
        const scoped = await completeScopedListing({ client: remote, listings: await listOpenPosts(remote), records, readFinal: (key) => changedFiles.has(key) });
        for (const [key, record] of Object.entries(records)) {
          const brief = scoped.briefs.get(record.postId);
          const fullBrief = full.briefs.get(record.postId);
          expect(brief && { id: brief.id, updatedAt: brief.updatedAt }).toEqual(fullBrief && { id: fullBrief.id, updatedAt: fullBrief.updatedAt });
          if (record.final === undefined || changedFiles.has(key)) expect(scoped.get(record.postId)).toEqual(full.get(record.postId));
        }
        // Requests: the open posts' pages (two ends each), plus one per owned post neither listed nor known final.
        const open = posts.filter((p) => p.status === 'draft' || p.status === 'scheduled').length;
        const unlisted = Object.entries(records).filter(([key, record]) => {
          const live = posts.find((p) => p.id === record.postId);
          const listed = live !== undefined && (live.status === 'draft' || live.status === 'scheduled');
          return !listed && (record.final === undefined || changedFiles.has(key));
        }).length;
        expect(remote.requests() - before).toBeLessThanOrEqual(2 * (Math.ceil(open / 100) + 2) + unlisted);

        // The whole plan, deletes included, is the one the full listing gives.
        const section = state({ posts: records });
        const files = Object.keys(records).map((key) => desired(key, changedFiles.has(key) ? shape({ content: `edited ${key}` }) : appliedShape(key), { file: `${key}.md` }));
        const planAgainst = (live: LivePostsById) =>
          planPosts({ project: TARGET, desired: { posts: files, held: [], invalid: [], contentDiagnostics: [], checkDiagnostics: [] }, remote: { live, capabilities }, state: { section, hash: stateSectionHash(section) }, prune: true, now: NOW, timezone: 'UTC' });
        expect(planAgainst(scoped)).toEqual(planAgainst(full));
      }),
      { numRuns: 60 },
    );
  });
});
