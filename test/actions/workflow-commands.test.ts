import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { annotation, diagnosticAnnotation, escapeData, escapeProperty, formatOutputs, reportApplyOutcome, reportToGitHubActions, validateSummaryMarkdown, workspacePath } from '../../src/actions/index.js';
import { md } from '../../src/text/markdown.js';
import type { Plan } from '../../src/plan/types.js';
import { CommandLineGuard } from '../../src/actions/command-guard.js';
import { parseOutputs } from './workflow-runner.js';
import { shape } from '../helpers/fixtures.js';

describe('workflow commands', () => {
  it('percent-encodes %, CR and LF in data, and also : and , in properties', () => {
    expect(escapeData('100% done\r\nnext')).toBe('100%25 done%0D%0Anext');
    expect(escapeData('%0A stays literal')).toBe('%250A stays literal');
    expect(escapeProperty('posts/a:b,c.md')).toBe('posts/a%3Ab%2Cc.md');
    expect(escapeProperty('50%,\n')).toBe('50%25%2C%0A');
  });

  it('writes the properties that have a value, in order, and the message after ::', () => {
    expect(String(annotation('error', 'bad', { file: 'posts/a.md', line: 3, col: 5, title: 'postsync x' }))).toBe('::error file=posts/a.md,line=3,col=5,title=postsync x::bad\n');
    expect(String(annotation('warning', 'plain'))).toBe('::warning::plain\n');
    expect(String(annotation('notice', 'a', { file: undefined, line: 2 }))).toBe('::notice line=2::a\n');
  });

  it('makes diagnostic paths relative to the repository root, not the project folder', () => {
    const root = '/repo/content-site';
    expect(workspacePath('posts/2026-12/a.md', { root, workspace: '/repo' })).toBe('content-site/posts/2026-12/a.md');
    expect(workspacePath('posts/a.md', { root: '/repo', workspace: '/repo' })).toBe('posts/a.md');
    // A project outside the workspace keeps its absolute path rather than a misleading `../`.
    expect(workspacePath('posts/a.md', { root: '/elsewhere', workspace: '/repo' })).toBe('/elsewhere/posts/a.md');
  });

  it('turns a diagnostic into one line holding its position, code and every detail', () => {
    const line = String(diagnosticAnnotation(
      { severity: 'error', code: 'unknown-field', message: 'unknown field `medai`', file: 'posts/b.md', line: 3, column: 1, expected: 'one of `id`, `media`', found: '`medai`', hint: 'did you mean `media`?' },
      { root: '/repo/site', workspace: '/repo' },
    ));
    expect(line).toBe('::error file=site/posts/b.md,line=3,col=1,title=postsync unknown-field::unknown field `medai`%0Aexpected: one of `id`, `media`%0Afound: `medai`%0Ahint: did you mean `media`?\n');
    expect(line.trimEnd()).not.toContain('\n');
    expect(String(diagnosticAnnotation({ severity: 'warning', code: 'x', message: 'no file' }, { root: '/r', workspace: '/r' }))).toBe('::warning title=postsync x::no file\n');
  });
});

describe('the command guard on our output streams', () => {
  it('lets no line start a workflow command, even across writes, and leaves other lines alone', () => {
    const guard = new CommandLineGuard();
    const out = [guard.filter('plain line\n'), guard.filter('::error::x\n  ::stop-commands::t\nnot a::command\n'), guard.filter('  '), guard.filter('::warning::y\n'), guard.filter('abc'), guard.filter('::not at a line start\n')].join('');
    expect(out).toBe('plain line\n\\u003a:error::x\n  \\u003a:stop-commands::t\nnot a::command\n  \\u003a:warning::y\nabc::not at a line start\n');
    expect(new CommandLineGuard().filter('see ##[error]there\n')).toBe('see ##\\u005berror]there\n');
  });

  it('writes control characters of an annotation as visible escapes, and keeps the annotation on one line', () => {
    expect(String(annotation('error', 'key \x1b[2J\u202e: bad', { file: 'posts/\x1b.md', title: 'postsync x' }))).toBe('::error file=posts/\\x1b.md,title=postsync x::key \\x1b[2J\\u202e: bad\n');
  });
});

describe('step outputs', () => {
  it('survive values with newlines and round-trip through the runner format', () => {
    const text = formatOutputs({ 'has-changes': true, create: 2, note: 'line one\nline two' }, 'DELIM');
    expect(text).toBe('has-changes<<DELIM\ntrue\nDELIM\ncreate<<DELIM\n2\nDELIM\nnote<<DELIM\nline one\nline two\nDELIM\n');
    expect(parseOutputs(formatOutputs({ a: 'x\ny', b: '' }))).toEqual({ a: 'x\ny', b: '' });
  });

  it('refuses a value that contains the delimiter', () => {
    expect(() => formatOutputs({ a: 'xx DELIM yy' }, 'DELIM')).toThrow(/safely/);
  });
});

describe('reportToGitHubActions', () => {
  it('does nothing outside GitHub Actions', async () => {
    const lines: string[] = [];
    const reported = await reportToGitHubActions({ root: '/r', diagnostics: [{ severity: 'error', code: 'x', message: 'm' }], summary: () => md`never` }, { env: { CI: 'true' }, annotate: (line) => lines.push(String(line)) });
    expect(reported).toBe(false);
    expect(lines).toEqual([]);
  });

  it('appends the summary, writes outputs and annotates inside GitHub Actions', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'postsync-actions-'));
    const env = { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: join(dir, 'summary.md'), GITHUB_OUTPUT: join(dir, 'output'), GITHUB_WORKSPACE: '/repo' };
    const lines: string[] = [];
    const diagnostics = [{ severity: 'warning' as const, code: 'w', message: 'careful', file: 'posts/a.md', line: 2 }];
    await reportToGitHubActions({ root: '/repo', diagnostics, summary: () => md`### hello` }, { env, annotate: (line) => lines.push(String(line)) });
    await reportToGitHubActions({ root: '/repo', diagnostics: [], summary: () => md`### again\n` }, { env, annotate: (line) => lines.push(String(line)) });
    expect(lines).toEqual(['::warning file=posts/a.md,line=2,title=postsync w::careful\n']);
    expect(await readFile(env.GITHUB_STEP_SUMMARY, 'utf8')).toBe('### hello\n### again\n');
    expect(parseOutputs(await readFile(env.GITHUB_OUTPUT, 'utf8'))).toEqual({ errors: '0', warnings: '0' });
  });
});

describe('apply and validate reports', () => {
  const plan = (changes: Plan['changes']): Plan => ({
    formatVersion: 1,
    createdAt: '2026-11-21T12:00:00.000Z',
    target: { id: 't', apiUrl: 'local', projectId: 'demo', local: true },
    stateHash: 'h',
    prune: false,
    only: null,
    uploads: [],
    changes,
    summary: { create: 1, adopt: 0, update: 0, unschedule: 0, delete: 0, move: 0, noop: 0, blocked: 1 },
    diagnostics: [],
  });

  async function actionsEnv() {
    const dir = await mkdtemp(join(tmpdir(), 'postsync-actions-'));
    return { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: join(dir, 'summary.md'), GITHUB_OUTPUT: join(dir, 'output'), GITHUB_WORKSPACE: '/repo' };
  }

  it('warns on each blocked change, at its file', async () => {
    const env = await actionsEnv();
    const lines: string[] = [];
    const blocked = { action: 'blocked' as const, reason: 'not-editable' as const, key: 'a', file: 'posts/a.md', postId: 'p', details: [{ code: 'not-editable' as const, status: 'published', verb: 'edited' as const }] };
    await reportToGitHubActions({ root: '/repo/site', diagnostics: [], plan: plan([blocked]), summary: () => md`plan` }, { env, annotate: (line) => lines.push(String(line)) });
    expect(lines).toEqual(['::warning file=site/posts/a.md,title=postsync blocked::a is blocked: post is published; published posts are never edited\n']);
    expect(parseOutputs(await readFile(env.GITHUB_OUTPUT, 'utf8'))).toMatchObject({ 'has-changes': 'false', blocked: '1', create: '1' });
  });

  it('after apply: an error per failed change, the outcome in the summary, applied and failed outputs', async () => {
    const env = await actionsEnv();
    const lines: string[] = [];
    const create = { action: 'create' as const, reason: 'new-file' as const, key: 'b', file: 'posts/b.md', postId: null, desired: shape(), details: [{ code: 'new-file' as const }] };
    const result = { applied: [], failed: [{ key: 'b', error: new Error('Creating a post failed: 50% off, no:\nway') }], uploadedFiles: 0, uploadedBytes: 0 };
    await reportApplyOutcome({ plan: plan([create]), result, root: '/repo', line: 'Apply complete: 0 created.' }, { env, annotate: (line) => lines.push(String(line)) });
    expect(lines).toEqual(['::error file=posts/b.md,title=postsync apply failed::b: Creating a post failed: 50%25 off, no:%0Away\n']);
    expect(await readFile(env.GITHUB_STEP_SUMMARY, 'utf8')).toBe('\n**Apply complete: 0 created.**\n\n- ❌ `b`: Creating a post failed: 50% off, no: way\n');
    expect(parseOutputs(await readFile(env.GITHUB_OUTPUT, 'utf8'))).toEqual({ applied: '0', failed: '1' });
  });

  it('summarizes validate with every problem in a table', () => {
    const markdown = validateSummaryMarkdown([{ severity: 'error', code: 'unknown-field', message: 'unknown field `a|b`', file: 'posts/x.md', line: 2, column: 1, hint: 'did you mean `media`?' }], { posts: 3 });
    expect(String(markdown)).toBe('### postsync validate\n\n**❌ 1 error, 0 warnings.**\n\n| | Where | Problem | Hint |\n|---|---|---|---|\n| ❌ | `posts/x.md:2:1` | unknown field `a\\|b` (`unknown-field`) | did you mean `media`? |\n');
    expect(String(validateSummaryMarkdown([], { posts: 1 }))).toBe('### postsync validate\n\n**✅ 1 post valid.**\n');
  });
});
