import { describe, expect, it } from 'vitest';
import type { Capabilities } from '../../src/api/types.js';
import type { DesiredPost, InvalidFile } from '../../src/content/types.js';
import type { Diagnostic } from '../../src/diagnostics.js';
import { planPosts } from '../../src/plan/plan-posts.js';
import { selectPlan } from '../../src/plan/select-plan.js';
import { livePostsById } from '../../src/plan/plan-context.js';
import type { Change, HeldPost, Plan, PlanInput } from '../../src/plan/types.js';
import { stateSectionHash } from '../../src/state/state-file.js';
import type { ProjectState } from '../../src/state/types.js';
import { PHOTO, SHA_A, TARGET, desired, livePost, record, shape, state } from '../helpers/fixtures.js';
import type { Post } from '../../src/api/types.js';

const NOW = new Date('2026-03-01T12:00:00.000Z');
const capabilities = new Map([[PHOTO, { available: true, supported: true } as Capabilities]]);

function error(file: string, message = 'something is wrong', extra: Partial<Diagnostic> = {}): Diagnostic {
  return { severity: 'error', code: 'test-error', message, file, line: 2, column: 1, ...extra };
}

function plan(parts: { posts?: DesiredPost[]; invalid?: InvalidFile[]; held?: HeldPost[]; content?: Diagnostic[]; checks?: Diagnostic[]; section?: ProjectState; live?: Post[]; prune?: boolean; only?: string[] }): Plan {
  const section = parts.section ?? state();
  const input: PlanInput = {
    project: TARGET,
    desired: { posts: parts.posts ?? [], held: parts.held ?? [], invalid: parts.invalid ?? [], contentDiagnostics: parts.content ?? [], checkDiagnostics: parts.checks ?? [] },
    remote: { live: livePostsById(parts.live ?? []), capabilities },
    state: { section, hash: stateSectionHash(section) },
    prune: parts.prune ?? false,
    now: NOW,
    timezone: 'UTC',
  };
  return selectPlan(planPosts(input), parts.only ?? null, input);
}

const lines = (changes: readonly Change[]) => changes.map((change) => `${change.action} ${change.key}${change.postId === null ? '' : ` ${change.postId}`}`);
const applied = shape({ content: 'As applied' });

describe('a post with errors is blocked, and only that post', () => {
  it('shows a file that yields no post as blocked with its errors, and plans the other posts as usual', () => {
    const broken = error('posts/idea.md', 'the front-matter is not valid YAML');
    const result = plan({ posts: [desired('launch')], invalid: [{ file: 'posts/idea.md', key: 'idea', readable: true }], content: [broken] });
    expect(lines(result.changes)).toEqual(['create launch', 'blocked idea']);
    const blocked = result.changes[1]!;
    expect(blocked).toMatchObject({ file: 'posts/idea.md', postId: null, diagnostics: [broken] });
    expect(blocked.details).toEqual([{ code: 'file-errors', file: 'posts/idea.md', message: 'the front-matter is not valid YAML', count: 1 }, { code: 'held-back', action: 'create' }]);
    expect(result.summary).toMatchObject({ create: 1, blocked: 1 });
  });

  it('blocks a valid file whose post breaks its accounts\' rules (a scheduled post without its image), and uploads nothing for it', () => {
    const scheduled = desired('launch', shape({ scheduledAt: '2026-12-01T08:00:00.000Z', media: [SHA_A] }));
    const other = desired('news');
    const rule = error('posts/launch.md', '`photo` (photoC) needs at least 1 image', { readiness: true });
    const result = plan({ posts: [scheduled, other], checks: [rule] });
    expect(lines(result.changes)).toEqual(['create news', 'blocked launch']);
    expect(result.changes[1]).toMatchObject({ desired: scheduled.shape, diagnostics: [rule] });
    expect(result.uploads).toEqual([]);
  });

  it('never blocks for a warning, such as a draft that is not ready to schedule', () => {
    const warning: Diagnostic = { severity: 'warning', code: 'attachments', message: 'not ready to schedule: needs an image', file: 'posts/idea.md', readiness: true };
    expect(lines(plan({ posts: [desired('idea')], checks: [warning] }).changes)).toEqual(['create idea']);
  });

  it('never updates or deletes an owned post whose file has errors, even with --prune', () => {
    const section = state({ posts: { launch: record('p1', applied, 'posts/launch.md') } });
    const live = [livePost('p1', applied)];
    const broken = error('posts/launch.md', 'unknown field `titel`');
    for (const prune of [false, true]) {
      const result = plan({ invalid: [{ file: 'posts/launch.md', key: 'launch', readable: true }], content: [broken], section, live, prune });
      expect(lines(result.changes)).toEqual(['blocked launch p1']);
      expect(result.changes[0]).toMatchObject({ file: 'posts/launch.md', diagnostics: [broken] });
      expect(result.changes[0]!.details.at(-1)).toEqual({ code: 'held-back', action: prune ? 'delete' : 'noop' });
    }
  });

  it('pairs an unparseable file with the owned post its state record names, whatever key its path gives', () => {
    // The post's key came from `id: launch`, which cannot be read any more.
    const section = state({ posts: { launch: record('p1', applied, 'posts/2026/teaser.md') } });
    const broken = error('posts/2026/teaser.md', 'a quote is never closed');
    const result = plan({ invalid: [{ file: 'posts/2026/teaser.md', key: '2026/teaser', readable: false }], content: [broken], section, live: [livePost('p1', applied)], prune: true });
    expect(lines(result.changes)).toEqual(['blocked launch p1']);
    expect(result.changes[0]!.diagnostics).toEqual([broken]);
  });

  it('pairs a file with the owned post of its key when the post has no valid file (renamed, and broken)', () => {
    const section = state({ posts: { launch: record('p1', applied, 'posts/old-name.md') } });
    const broken = error('posts/new-name.md');
    const result = plan({ invalid: [{ file: 'posts/new-name.md', key: 'launch', readable: true }], content: [broken], section, live: [livePost('p1', applied)], prune: true });
    expect(lines(result.changes)).toEqual(['blocked launch p1']);
  });

  it('deletes no owned post while a file that cannot be parsed pairs with none: it may be that post, renamed', () => {
    const section = state({ posts: { gone: record('p1', applied, 'posts/gone.md') } });
    const broken = error('posts/renamed.md', 'the front-matter is not valid YAML');
    const result = plan({ invalid: [{ file: 'posts/renamed.md', key: 'renamed', readable: false }], content: [broken], section, live: [livePost('p1', applied)], prune: true });
    expect(lines(result.changes)).toEqual(['blocked gone p1', 'blocked renamed']);
    expect(result.changes[0]!.details).toEqual([{ code: 'unreadable-file', gone: 'posts/gone.md', files: ['posts/renamed.md'] }]);
    // A readable file says which post it is: the removed one is deleted as usual.
    const readable = plan({ invalid: [{ file: 'posts/renamed.md', key: 'renamed', readable: true }], content: [broken], section, live: [livePost('p1', applied)], prune: true });
    expect(lines(readable.changes)).toEqual(['delete gone p1', 'blocked renamed']);
  });

  it('keys a file under its own path when the key its path gives is a valid post\'s', () => {
    const broken = error('posts/launch.md');
    const result = plan({ posts: [desired('launch', shape(), { file: 'posts/other.md' })], invalid: [{ file: 'posts/launch.md', key: 'launch', readable: false }], content: [broken] });
    expect(lines(result.changes)).toEqual(['create launch', 'blocked posts/launch.md']);
  });

  it('shows two files claiming one key as one blocked change with the errors of both', () => {
    const a = error('posts/a.md', 'the post key `launch` is also used by `posts/b.md`');
    const b = error('posts/b.md', 'the post key `launch` is also used by `posts/a.md`');
    const result = plan({ invalid: [{ file: 'posts/a.md', key: 'launch', readable: true }, { file: 'posts/b.md', key: 'launch', readable: true }], content: [a, b] });
    expect(lines(result.changes)).toEqual(['blocked launch']);
    expect(result.changes[0]).toMatchObject({ file: 'posts/a.md', diagnostics: [a, b] });
  });

  it('blocks every change while an error lies outside the post files (no content folder)', () => {
    const section = state({ posts: { launch: record('p1', applied, 'posts/launch.md') } });
    const missing = error('posts', 'the content folder `posts` does not exist');
    const result = plan({ content: [missing], section, live: [livePost('p1', applied)], prune: true });
    expect(lines(result.changes)).toEqual(['blocked launch p1']);
    expect(result.changes[0]!.details[0]).toEqual({ code: 'project-errors', where: ['posts'], message: 'the content folder `posts` does not exist', count: 1 });
    expect(result.changes[0]!.diagnostics).toEqual([missing]);
  });

  it('with --target, leaves other files out, and their errors block nothing', () => {
    const broken = error('posts/idea.md');
    const result = plan({ posts: [desired('launch')], invalid: [{ file: 'posts/idea.md', key: 'idea', readable: true }], content: [broken], only: ['launch'] });
    expect(lines(result.changes)).toEqual(['create launch']);
    expect(lines(plan({ posts: [desired('launch')], invalid: [{ file: 'posts/idea.md', key: 'idea', readable: true }], content: [broken], only: ['idea'] }).changes)).toEqual(['blocked idea']);
  });

  it('blocks only the occurrence of a repeat that a house rule holds back, not the other posts of its file', () => {
    const file = 'posts/weekly.md';
    const owned = state({ posts: { 'weekly@2026-03-09': record('p9', applied, file) } });
    const live = [livePost('p9', applied)];
    const quiet = error(file, 'scheduled at 23:00, in quiet hours', { key: 'weekly@2026-03-16' });
    const gap = error(file, 'too close to another post', { key: 'weekly@2026-03-09' });
    const held: HeldPost[] = [
      { file, key: 'weekly@2026-03-09' },
      { file, key: 'weekly@2026-03-16' },
    ];
    const posts = [desired('weekly@2026-03-02', shape(), { file }), desired('weekly@2026-03-23', shape(), { file })];
    for (const prune of [false, true]) {
      const result = plan({ posts, held, content: [quiet, gap], section: owned, live, prune });
      expect(lines(result.changes)).toEqual(['create weekly@2026-03-02', 'create weekly@2026-03-23', 'blocked weekly@2026-03-09 p9', 'blocked weekly@2026-03-16']);
      expect(result.changes[2]).toMatchObject({ diagnostics: [gap] });
      expect(result.changes[3]).toMatchObject({ diagnostics: [quiet] });
    }
  });

  it('blocks every post of a file that yields none, even for an error about one of its posts', () => {
    const file = 'posts/weekly.md';
    const owned = state({ posts: { 'weekly@2026-03-09': record('p9', applied, file), 'weekly@2026-03-16': record('p16', applied, file) } });
    const live = [livePost('p9', applied), livePost('p16', applied)];
    const banned = error(file, 'uses the banned word `free`', { key: 'weekly@2026-03-16' });
    const result = plan({ invalid: [{ file, key: 'weekly', readable: true }], content: [banned], section: owned, live, prune: true });
    expect(lines(result.changes)).toEqual(['blocked weekly@2026-03-09 p9', 'blocked weekly@2026-03-16 p16']);
  });
});
