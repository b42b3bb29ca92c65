import type { PostSort } from '../../api/types.js';
import type { StoredPost } from '../store/model.js';
import type { PageResult, SortKey } from '../store/post-index.js';
import type { Project } from '../store/store.js';
import { Violations, checkQueryNames, codePointLength, integerParam, isUuid, platformParam } from '../protocol/validate.js';

const SORTS: readonly PostSort[] = ['schedule_desc', 'schedule_asc', 'newest', 'oldest'];
const STATUSES = ['draft', 'scheduled', 'publishing', 'published', 'partially_published', 'failed'];
const PARAMS = ['limit', 'status', 'platform', 'q', 'sort', 'after', 'before'];

function cursorKey(project: Project, name: string, raw: string | null, violations: Violations): SortKey | undefined {
  if (raw === null) return undefined;
  if (!isUuid(raw)) {
    violations.add(`${name} must be a post id (uuid)`);
    return undefined;
  }
  const key = project.posts.keyOf(raw.toLowerCase());
  if (!key) violations.add(`${name} ${raw} is not a post of this project`);
  return key;
}

/**
 * GET /posts: validates every parameter (all violations at once), then walks the sort's index
 * from the cursor. `after` is the id of the last post of the previous page (the `nextCursor`);
 * `before` is the first visible post id and returns the page preceding it.
 */
export function listPosts(project: Project, query: URLSearchParams): PageResult<StoredPost> {
  const violations = new Violations();
  checkQueryNames(query, PARAMS, violations);
  const limit = integerParam(query.get('limit'), 'limit', { min: 1, max: 100, fallback: 50 }, violations);
  const sort = (query.get('sort') ?? 'schedule_desc') as PostSort;
  if (!SORTS.includes(sort)) violations.add(`sort must be one of ${SORTS.join(', ')}`);
  const status = query.get('status');
  if (status !== null && !STATUSES.includes(status)) violations.add(`status must be one of ${STATUSES.join(', ')}`);
  const platform = platformParam(query.get('platform'), violations);
  const q = query.get('q');
  if (q !== null && (q.length === 0 || codePointLength(q) > 200)) violations.add('q must be 1 to 200 characters');
  if (query.has('after') && query.has('before')) violations.add('send either after or before, never both');
  const after = cursorKey(project, 'after', query.get('after'), violations);
  const before = cursorKey(project, 'before', query.get('before'), violations);
  violations.throwIfAny();

  const needle = q?.toLocaleLowerCase();
  // The status index holds only matching posts; cursors keep working (keys come from the main index).
  const index = status === null ? project.posts : project.postsWithStatus(status);
  const matches = (post: StoredPost): boolean =>
    (platform === null || post.targets.some((target) => target.platform === platform)) &&
    (needle === undefined ||
      post.content.toLocaleLowerCase().includes(needle) ||
      post.targets.some((target) => target.contentOverride?.toLocaleLowerCase().includes(needle) ?? false));
  return index.page({ sort, limit, after, before, matches });
}
