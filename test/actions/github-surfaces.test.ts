import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commentMarker, reportCalendarToGitHubActions } from '../../src/actions/calendar-report.js';
import { applyOutcomeMarkdown, validateSummaryMarkdown } from '../../src/actions/summary.js';
import { issueMarker } from '../../src/health/health-report.js';
import { reportHealth } from '../../src/health/report-health.js';
import { initProject } from '../../src/init/init-project.js';
import { desired, desiredMedia, shape, SHA_A } from '../helpers/fixtures.js';
import { calendarFor } from '../calendar/fixtures.js';
import { runCli } from '../helpers/cli.js';
import { testdir } from '../helpers/testdir.js';
import { GitHubStandIn, useGitHubStandIn } from './github-comments-stand-in.js';
import { startGitHubStandIn } from './github-issues-stand-in.js';

const TOKEN = 'ghs_surfaces_token';
const REPOSITORY = 'northwind/content';
const github = useGitHubStandIn({ token: TOKEN, repository: REPOSITORY });
const TICKS = 'a`b``c';

/** The text between the first code span's fences, as CommonMark reads it: fences of equal length, one padding space each side stripped. */
function codeSpans(markdown: string): string[] {
  const spans: string[] = [];
  const pattern = /(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/g;
  for (const match of markdown.matchAll(pattern)) {
    const inner = match[2]!;
    spans.push(inner.startsWith(' ') && inner.endsWith(' ') && inner.trim() !== '' ? inner.slice(1, -1) : inner);
  }
  return spans;
}

/** `postsync calendar`'s report for a calendar in `folder` of the workspace, on pull request `number`. */
async function reportCalendar(folder: string, number: number, text: string, key = 'launch', standIn = github()): Promise<void> {
  const workspace = await testdir();
  const event = join(workspace, `event-${number}.json`);
  await writeFile(event, JSON.stringify({ pull_request: { number } }));
  const projectRoot = join(workspace, folder);
  await mkdir(projectRoot, { recursive: true });
  const model = calendarFor({ posts: [desired(key, shape({ scheduledAt: '2027-01-05T09:00:00.000Z', content: text }))] });
  const env = { GITHUB_ACTIONS: 'true', GITHUB_WORKSPACE: workspace, GITHUB_STEP_SUMMARY: join(workspace, 'summary.md'), POSTSYNC_COMMENT: 'true', GITHUB_TOKEN: TOKEN, GITHUB_REPOSITORY: REPOSITORY, GITHUB_EVENT_PATH: event, GITHUB_API_URL: standIn.url };
  await reportCalendarToGitHubActions(model, { env, projectRoot, annotate: () => undefined, note: () => undefined });
}

describe('the pull-request comment', () => {
  it('neither pings @mentions nor links #refs of a post text', async () => {
    await reportCalendar('', 71, 'Thanks @someone and @org/team, see #1 and acme/site#2 <img src=x onerror=alert(1)>');
    const body = github().comments.find((comment) => comment.issue === 71)!.body;
    expect(body).not.toMatch(/@someone|@org|#1|#2/);
    expect(body).not.toContain('<img');
    // Still readable: the characters are there, only the links are broken.
    expect(body.replace(/\u200d/g, '')).toContain('@someone and @org/team, see #1 and acme/site#2');
  });

  it('keeps a folder with backticks inside its code span in the title', async () => {
    await reportCalendar(`brand ${TICKS}`, 72, 'Hello');
    const body = github().comments.find((comment) => comment.issue === 72)!.body;
    const title = body.split('\n').find((line) => line.startsWith('### '))!;
    expect(codeSpans(title)).toEqual([`brand ${TICKS}`]);
    expect(codeSpans(body)).toContain(`launch`);
  });

  it('edits only its own comment: a marker a commenter planted is left alone and a new comment is made', async () => {
    const planted = `${commentMarker('')}\nplanted by someone else`;
    github().addComment(73, planted, 'mallory');
    await reportCalendar('', 73, 'Hello');
    const comments = github().comments.filter((comment) => comment.issue === 73);
    expect(comments).toHaveLength(2);
    expect(comments[0]!.body).toBe(planted);
    expect(comments[1]!.user.login).toBe('github-actions[bot]');
    expect(github().requests.some((request) => request.method === 'PATCH' && request.path.endsWith(`/comments/${comments[0]!.id}`))).toBe(false);
    // The next push edits our comment, still never the planted one.
    await reportCalendar('', 73, 'Hello again');
    expect(github().comments.filter((comment) => comment.issue === 73).map((comment) => comment.body.includes('Hello again'))).toEqual([false, true]);
  });
});

describe('thumbnails of the pictures under review', () => {
  it('in the comment and the job summary, at the pull request’s head commit and the calendar’s folder', async () => {
    const workspace = await testdir();
    const head = 'c0ffee'.padEnd(40, '0');
    const event = join(workspace, 'event.json');
    await writeFile(event, JSON.stringify({ pull_request: { number: 81, head: { sha: head } } }));
    const projectRoot = join(workspace, 'brand');
    await mkdir(projectRoot, { recursive: true });
    const model = calendarFor({ posts: [desired('launch', shape({ scheduledAt: '2027-01-05T09:00:00.000Z', media: [SHA_A] }), { media: [desiredMedia(SHA_A, 'media/latte.png')] })] });
    const summary = join(workspace, 'summary.md');
    const env = { GITHUB_ACTIONS: 'true', GITHUB_WORKSPACE: workspace, GITHUB_STEP_SUMMARY: summary, POSTSYNC_COMMENT: 'true', GITHUB_TOKEN: TOKEN, GITHUB_REPOSITORY: REPOSITORY, GITHUB_EVENT_PATH: event, GITHUB_API_URL: github().url, GITHUB_SERVER_URL: 'https://github.example', GITHUB_SHA: 'f'.repeat(40) };
    await reportCalendarToGitHubActions(model, { env, projectRoot, annotate: () => undefined, note: () => undefined });
    const picture = `<img src="https://github.example/${REPOSITORY}/blob/${head}/brand/media/latte.png?raw=true" alt="media/latte.png" height="64">`;
    expect(github().comments.find((comment) => comment.issue === 81)!.body).toContain(picture);
    expect(await readFile(summary, 'utf8')).toContain(picture);
  });
});

describe('whose comment is ours', () => {
  it('with a personal token: the comments of its user, not github-actions[bot]’s', async () => {
    const personal = new GitHubStandIn({ token: TOKEN, repository: REPOSITORY, userLogin: 'octo-pat' });
    await personal.start();
    try {
      personal.addComment(75, `${commentMarker('')}\nwritten by the workflow`, 'github-actions[bot]');
      await reportCalendar('', 75, 'Hello', 'launch', personal);
      await reportCalendar('', 75, 'Hello again', 'launch', personal);
      expect(personal.comments.map((comment) => [comment.user.login, comment.body.includes('Hello again')])).toEqual([
        ['github-actions[bot]', false],
        ['octo-pat', true],
      ]);
    } finally {
      await personal.close();
    }
  });
});

describe('the markers', () => {
  it('count only as the first line: a key that holds another calendar’s marker does not make its comment that calendar’s', async () => {
    await reportCalendar('brand', 74, 'Hello', `k${commentMarker('')}`);
    await reportCalendar('', 74, 'Root calendar');
    const comments = github().comments.filter((comment) => comment.issue === 74);
    expect(comments.map((comment) => comment.body.split('\n')[0])).toEqual([String(commentMarker('brand')), String(commentMarker(''))]);
  });
});

describe('the job summary', () => {
  it('keeps a key and a file with backticks inside their code spans, and neutralises mentions in messages', () => {
    const summary = String(validateSummaryMarkdown([{ severity: 'error', code: 'x', message: 'ask @someone about #12 <b>', file: `posts/${TICKS}.md`, line: 2 }], { posts: 1 }));
    expect(codeSpans(summary)).toContain(`posts/${TICKS}.md:2`);
    expect(summary).not.toMatch(/@someone|#12|<b>/);
    const outcome = String(applyOutcomeMarkdown({ line: 'Applied.', failed: [{ key: TICKS, message: 'remote said @admin' }] }));
    expect(codeSpans(outcome)).toEqual([TICKS]);
    expect(outcome).not.toContain('@admin');
  });

  it('of a 10,000-change plan stays under GitHub’s 1 MiB and says how to see the rest', async () => {
    const dir = await testdir();
    await initProject({ dir, now: new Date('2026-11-21T12:00:00Z'), timezone: 'UTC' });
    await mkdir(join(dir, 'posts/bulk'));
    await Promise.all(Array.from({ length: 10_000 }, (_, index) => writeFile(join(dir, `posts/bulk/post-${index}.md`), `---\ntargets: [photo]\n---\nHello ${index}\n`)));
    const summary = join(dir, 'summary.md');
    const plan = await runCli(['plan', '--local'], { cwd: dir, env: { GITHUB_ACTIONS: 'true', GITHUB_WORKSPACE: dir, GITHUB_STEP_SUMMARY: summary } });
    expect(plan.code, plan.stderr.split("\n").filter((line) => !line.startsWith("::")).join("\n").slice(-2000)).toBe(0);
    const text = await readFile(summary, 'utf8');
    expect(Buffer.byteLength(text)).toBeLessThan(1024 * 1024);
    expect(text).toMatch(/more changes not shown/);
    expect(text).toContain('postsync plan');
  }, 180_000);
});

describe('the health issue', () => {
  it('keeps a path with backticks inside its code span, and edits no issue someone else planted its marker in', async () => {
    const stand = await startGitHubStandIn({ repository: REPOSITORY, token: TOKEN });
    try {
      stand.plant({ title: 'planted', body: `${issueMarker('.')}\nplanted`, labels: ['postsync-health'], login: 'mallory' });
      const report = { problems: [{ file: `posts/${TICKS}.md`, line: 3, text: 'invalid file: ask @someone' }], failures: [] };
      const outcome = await reportHealth(report, { blobBase: null, folder: '.', runUrl: null }, { apiUrl: stand.apiUrl, token: TOKEN, repository: REPOSITORY });
      expect(outcome.kind).toBe('opened');
      expect(stand.issues).toHaveLength(2);
      expect(stand.issues[0]!.body).toBe(`${issueMarker('.')}\nplanted`);
      const body = stand.issues[1]!.body;
      expect(codeSpans(body)).toContain(`posts/${TICKS}.md:3`);
      expect(body).not.toContain('@someone');
    } finally {
      await stand.close();
    }
  });
});
