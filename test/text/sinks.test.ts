import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appendSummary } from '../../src/actions/outputs.js';
import { upsertStickyComment } from '../../src/actions/pull-request-comment.js';
import type { ActionsSink } from '../../src/actions/report.js';
import { validateSummaryMarkdown, applyOutcomeMarkdown } from '../../src/actions/summary.js';
import { annotation, WorkflowCommand } from '../../src/actions/workflow-commands.js';
import { html, SafeHtml } from '../../src/calendar/escape.js';
import { renderCalendarPage } from '../../src/calendar/page.js';
import { closeIssue, openIssue } from '../../src/health/github-issues.js';
import { issueBody, type HealthReport } from '../../src/health/health-report.js';
import { codeBlock, htmlComment, inlineCode, joinMarkdown, Markdown, markdownLink, markdownMessage, md } from '../../src/text/markdown.js';
import { writeWorkflowCommand } from '../../cli/workflow-output.js';
import { problemsSummaryMarkdown } from '../../cli/views/problems-summary.js';
import { renderPlanMarkdown } from '../../cli/views/plan-markdown.js';
import type { Plan } from '../../src/plan/types.js';

/** Text an attacker controls: a file name, a post text, a handle, a remote error message. */
const HOSTILE = [
  '\x1b]8;;https://evil.example\x07click\x1b]8;;\x07\x1b[2J',
  '\u009b31m C1 \u202eevil\u202c \u200b',
  '::set-output name=x::pwned%0A::error::injected\n::warning::second line',
  '@admin please #123 look',
  '<img src=x onerror=alert(1)> <script>alert(1)</script>',
  '[click](https://evil.example) ![img](https://evil.example/p.png)',
  '`code` ``` fence | pipe *bold* _em_ ~~strike~~',
];

/** What must never reach GitHub's Markdown from untrusted text: live HTML, a link or image, a mention or ref, a raw control character. */
function expectInertMarkdown(markdown: string): void {
  // GitHub renders, links and pings nothing inside a code span or block, or in a link's url.
  const rendered = markdown.replace(/(`+)[\s\S]*?\1/g, '').replace(/\]\([^()\s]*\)/g, ']');
  expect(rendered).not.toMatch(/<(img|script)/i);
  expect(rendered).not.toMatch(/(?<!\\)\[(click|img)(?<!\\)\]\(/);
  expect(rendered).not.toMatch(/@admin|#123/);
  expect(markdown).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200b\u202a-\u202e]/);
}

describe('Markdown made by md and its builders', () => {
  it('escapes every interpolated string and keeps Markdown as it is', () => {
    for (const text of HOSTILE) {
      const made = md`**${text}** ${inlineCode(text)} ${markdownMessage(`the remote said: ${text}`)} ${markdownLink(md`${text}`, `https://x.example/${text}`)}`;
      expectInertMarkdown(made.toString());
      expect(md`a ${made} b`.toString()).toBe(`a ${made.toString()} b`);
    }
    expect(md`x ${3} ${joinMarkdown([md`a`, md`b`], ', ')}`.toString()).toBe('x 3 a, b');
  });

  it('is made nowhere else: the constructor refuses a key other than its own, and md only tags a template', () => {
    expect(() => new Markdown(Symbol('markdown') as never, 'raw')).toThrow(TypeError);
    expect(() => md(['<script>'] as unknown as TemplateStringsArray)).toThrow(TypeError);
    expect(() => new WorkflowCommand(Symbol('workflow command') as never, '::error::x')).toThrow(TypeError);
  });

  it('refuses a marker that could end its HTML comment', () => {
    expect(() => htmlComment('x --> <img src=x onerror=alert(1)>')).toThrow(TypeError);
    expect(htmlComment('postsync-calendar').toString()).toBe('<!-- postsync-calendar -->');
  });

  it('keeps a code block shut whatever backticks its text holds', () => {
    expect(codeBlock('a\n````\nb', { indent: '' }).toString()).toBe('`````\na\n````\nb\n`````');
  });
});

describe('every Markdown sink, fed hostile file names, keys, texts and remote errors', () => {
  it('the job summaries of validate, apply and status --problems', async () => {
    for (const text of HOSTILE) {
      expectInertMarkdown(validateSummaryMarkdown([{ severity: 'error', code: 'x', message: `unknown field ${text}`, file: `posts/${text}.md`, line: 2, hint: text }], { posts: 1 }).toString());
      expectInertMarkdown(applyOutcomeMarkdown({ line: 'Applied.', failed: [{ key: text, message: text }] }).toString());
      expectInertMarkdown(problemsSummaryMarkdown([{ key: text, file: `posts/${text}.md`, problems: [{ kind: 'failed', message: text } as never] }], { title: 'postsync status --problems' }).toString());
    }
    const dir = await mkdtemp(join(tmpdir(), 'postsync-sinks-'));
    await appendSummary({ summaryFile: join(dir, 'summary.md') }, validateSummaryMarkdown([{ severity: 'error', code: 'x', message: HOSTILE.join(' '), file: HOSTILE[4] }], { posts: 1 }));
    expectInertMarkdown(await readFile(join(dir, 'summary.md'), 'utf8'));
  });

  it('the plan of the job summary and plan --markdown, the project the remote names among them', () => {
    for (const text of HOSTILE) {
      const plan: Plan = {
        formatVersion: 1,
        createdAt: '2026-11-21T12:00:00.000Z',
        target: { id: 't', apiUrl: 'local', projectId: text, local: true },
        stateHash: 'h',
        prune: false,
        only: null,
        uploads: [],
        changes: [{ action: 'blocked', reason: 'file-errors', key: text, file: `posts/${text}.md`, postId: null, details: [{ code: 'file-errors', file: `posts/${text}.md`, message: text, count: 1 }] }],
        summary: { create: 0, adopt: 0, update: 0, unschedule: 0, delete: 0, move: 0, noop: 0, blocked: 1 },
        diagnostics: [{ severity: 'error', code: 'x', message: text, file: `posts/${text}.md`, hint: text }],
      };
      expectInertMarkdown(renderPlanMarkdown(plan, { label: `Target: local API (project ${text})`, timezone: 'UTC', pruneNote: text }).toString());
    }
  });

  it('the health issue body', () => {
    for (const text of HOSTILE) {
      const report: HealthReport = { problems: [{ file: `posts/${text}.md`, line: 3, text: `failed: ${text}` }], failures: [] };
      expectInertMarkdown(issueBody(report, { blobBase: 'https://github.com/o/r/blob/abc/', folder: 'brand', runUrl: 'https://github.com/o/r/actions/runs/1' }).toString());
    }
  });

  it('a workflow command keeps a hostile message and file on its one line, encoded', () => {
    for (const text of HOSTILE) {
      const line = annotation('error', text, { file: `posts/${text}.md`, title: 'postsync x' }).toString();
      expect(line.split('\n').filter(Boolean)).toHaveLength(1);
      expect(line).toMatch(/^::error file=[^,:]*,title=postsync x::/);
      expect(line).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e]/);
    }
  });

  it('the calendar page shows a hostile caption and title as text', () => {
    const safe = html`<p title="${HOSTILE[4]!}">${HOSTILE.join(' ')}</p>`.toString();
    expect(safe).not.toMatch(/<(img|script)/);
    expect(renderCalendarPage).toBeTypeOf('function');
  });
});

/** Never run: `tsc` (npm run typecheck) fails when a sink takes a plain string, so a forgotten escape cannot compile. */
export function sinksRefuseRawStrings(sink: ActionsSink, target: Parameters<typeof upsertStickyComment>[0], repo: Parameters<typeof openIssue>[0]): void {
  // @ts-expect-error the job summary takes Markdown only
  void appendSummary(null, 'raw text');
  // @ts-expect-error the pull-request comment takes Markdown only
  void upsertStickyComment(target, { marker: htmlComment('m'), body: 'raw text', nothingBody: md`none` });
  // @ts-expect-error the health issue's body takes Markdown only
  void openIssue(repo, { title: 'title', body: 'raw text' });
  // @ts-expect-error the closing comment takes Markdown only
  void closeIssue(repo, 1, 'raw text');
  // @ts-expect-error our workflow commands are made by annotation() only
  writeWorkflowCommand('::error::raw');
  // @ts-expect-error the Actions report's writer takes workflow commands only
  sink.annotate('::error::raw');
  // @ts-expect-error a string is not Markdown
  const markdown: Markdown = 'raw text';
  // @ts-expect-error a string is not safe HTML
  const page: SafeHtml = '<script>';
  void markdown;
  void page;
}
