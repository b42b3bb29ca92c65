import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { renderAccounts } from '../../cli/views/accounts.js';
import { renderAnalyticsCsv, renderAnalyticsTable, type AnalyticsReport } from '../../cli/views/analytics.js';
import { applyProgressPrinter } from '../../cli/views/apply-progress.js';
import { renderDiagnostics } from '../../cli/views/diagnostics.js';
import { renderImport } from '../../cli/views/import.js';
import { renderPlan } from '../../cli/views/plan-human.js';
import { renderStateShown } from '../../cli/views/state-home.js';
import { renderStatus, type StatusReport } from '../../cli/views/status.js';
import { colours } from '../../cli/views/style.js';
import { renderUnconfirmed } from '../../cli/views/unconfirmed-records.js';
import { describeTrigger, renderDelta } from '../../cli/views/watch-delta.js';
import { watchPrinter } from '../../cli/views/watch.js';
import { renderWhoami } from '../../cli/views/whoami.js';
import type { Account, Post } from '../../src/api/types.js';
import type { Diagnostic } from '../../src/diagnostics.js';
import type { ImportResult } from '../../src/import/import-posts.js';
import { createPlan } from '../../src/plan/planner.js';
import type { Change } from '../../src/plan/types.js';
import type { Terminal } from '../../src/text/terminal.js';
import { planDelta } from '../../src/watch/plan-delta.js';
import { desired, livePost, planInput, record, shape, state, TARGET } from '../helpers/fixtures.js';

/** Text an attacker controls (a file name, a post text, a handle, a remote error): ESC sequences, C1, bidi and zero-width marks, line breaks. */
const HOSTILE = '\x1b]8;;https://evil.example\x07x\x1b[2J\u009b31m\u202eevil\u202c\u200b\n::warning::second line\r';

/** Every character the terminal rule escapes, but the line feed that separates our own lines. */
const UNSAFE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2069\ufeff]/;

const plain = colours(false);

/** What a view printed holds the hostile text only as visible escapes, on the line it belongs to. */
function expectEscaped(printed: Terminal | string, options: { times?: number } = {}): void {
  const text = String(printed);
  expect(text).not.toMatch(UNSAFE);
  expect(text.split('\n').some((line) => line.startsWith('::warning::'))).toBe(false);
  expect(text).toContain('\\x1b]8;;https://evil.example\\x07x\\x1b[2J\\x9b31m\\u202eevil\\u202c\\u200b\\n::warning::second line\\r');
  if (options.times !== undefined) expect(text.split('\\x1b]8;;').length - 1).toBeGreaterThanOrEqual(options.times);
}

describe('the views print hostile names and texts escaped', () => {
  it('plan: a key, a file name, a text and a problem', () => {
    const applied = shape({ content: 'before' });
    const plan = createPlan(
      planInput({
        desired: [desired(`a${HOSTILE}`, shape({ content: `new ${HOSTILE}` }), { file: `posts/${HOSTILE}.md` }), desired('b', shape({ content: `after ${HOSTILE}` }), { file: 'posts/b.md' })],
        state: state({ posts: { b: record('p1', applied, 'posts/b.md') } }),
        live: [livePost('p1', applied)],
      }),
    );
    const diagnostics: Diagnostic[] = [{ severity: 'error', code: 'x', message: HOSTILE, file: `posts/${HOSTILE}.md`, line: 1, hint: HOSTILE, expected: HOSTILE, found: HOSTILE }];
    expectEscaped(renderPlan({ ...plan, diagnostics }, { label: 'Target: local', style: plain, timezone: 'UTC', verbose: true }), { times: 7 });
    expectEscaped(renderDiagnostics(diagnostics, plain), { times: 5 });
    expectEscaped(renderPlan(plan, { label: 'Target: local', style: plain, timezone: 'UTC', fullText: true }));
  });

  it('status: what the remote says of a post and its accounts, and the state file keys', () => {
    const report: StatusReport = {
      formatVersion: 1,
      command: 'status',
      target: TARGET,
      posts: [
        {
          key: HOSTILE,
          file: `posts/${HOSTILE}.md`,
          postId: HOSTILE,
          remote: 'present',
          status: HOSTILE,
          scheduledAt: HOSTILE,
          publishedAt: null,
          readiness: { ready: false, missing: [HOSTILE] },
          problems: [{ kind: 'failed', message: HOSTILE } as never],
          targets: [{ socialAccountId: HOSTILE, alias: null, platform: HOSTILE, handle: HOSTILE, status: HOSTILE, externalPostId: HOSTILE, error: null, waitReason: HOSTILE, nextAttemptAt: HOSTILE, publishedAt: null }],
        },
      ],
      pending: [{ key: HOSTILE, file: HOSTILE, startedAt: HOSTILE }],
      uploads: [{ sha256: 'a'.repeat(64), mediaId: HOSTILE, partCount: 1, startedAt: HOSTILE }],
      otherTargets: [{ id: HOSTILE, posts: 1 }],
    };
    expectEscaped(renderStatus(report, { label: 'Target: local', style: plain, timezone: 'UTC' }), { times: 12 });
  });

  it('accounts and whoami: handles, statuses, rules and permissions of the remote', () => {
    const account = { id: HOSTILE, platform: HOSTILE, handle: HOSTILE, status: HOSTILE } as Account;
    expectEscaped(renderAccounts({ target: TARGET, accounts: [{ account, aliases: [HOSTILE], capabilities: null, capabilitiesError: HOSTILE }], unknownAliases: [{ alias: HOSTILE, id: HOSTILE }] }, { label: 'Target', style: plain }), { times: 8 });
    expectEscaped(renderWhoami({ session: { project: { id: HOSTILE }, key: { expiresAt: HOSTILE }, permissions: [HOSTILE as never] }, target: TARGET, keySource: 'POSTSYNC_API_KEY' }, { label: 'Target', style: plain, now: new Date(0), timezone: 'UTC' }), { times: 3 });
  });

  it('import, state confirm and state show: remote posts and state records', () => {
    const post = { id: HOSTILE, status: HOSTILE, content: HOSTILE } as Post;
    const result = {
      plan: { items: [], skipped: [{ post, reason: HOSTILE }], pending: [{ post, key: HOSTILE }], filteredOut: [post], managed: 0, otherCalendars: [{ folder: HOSTILE }], toDownload: [] },
      outcome: { failed: [] },
    } as unknown as ImportResult;
    expectEscaped(renderImport(result, { label: 'Import', style: plain, dryRun: true, statePath: '.postsync/state.json' }), { times: 5 });
    expectEscaped(renderUnconfirmed([{ kind: 'posts', key: HOSTILE, remoteId: HOSTILE, status: HOSTILE, text: null }], { label: 'Target', style: plain }), { times: 3 });
    expectEscaped(renderStateShown({ where: { kind: 'branch', branch: HOSTILE, remote: HOSTILE, path: HOSTILE, commit: 'c'.repeat(40), found: true }, sections: [{ targetId: HOSTILE, posts: 1, media: 0, pending: 0, uploads: 0, unconfirmed: { posts: [HOSTILE], pending: [], media: [], uploads: [] } }] } as never, { cwd: '/', sealNote: HOSTILE }), { times: 6 });
  });

  it('analytics: the table and the CSV document', () => {
    const row = { postId: HOSTILE, key: HOSTILE, file: null, socialAccountId: HOSTILE, account: HOSTILE, platform: HOSTILE, externalPostId: HOSTILE, publishedAt: HOSTILE, impressions: 1, reach: 1, likes: 1, comments: 1, shares: 1, clicks: 1, videoViews: null };
    const report = { formatVersion: 1, command: 'analytics', target: TARGET, filters: { from: null, to: null, accountId: null, platform: null }, rows: [row], totals: { impressions: 1, reach: 1, likes: 1, comments: 1, shares: 1, clicks: 1, videoViews: 0 } } as AnalyticsReport;
    expectEscaped(renderAnalyticsTable(report, { label: 'Target', style: plain, timezone: 'UTC' }), { times: 4 });
    const csv = String(renderAnalyticsCsv(report));
    expect(csv.replace(/\r\n/g, '')).not.toMatch(UNSAFE);
    expect(csv.split('\r\n')).toHaveLength(3);
  });

  it('apply progress and watch: a file, a key, a remote error and a notice', () => {
    const stream = Object.assign(new PassThrough(), { columns: 400 }) as unknown as NodeJS.WriteStream;
    let printed = '';
    (stream as unknown as PassThrough).on('data', (chunk: Buffer) => (printed += chunk.toString()));
    const print = applyProgressPrinter({ stream, style: plain, mode: 'plain', totalUploadBytes: 10 });
    const upload = { sha256: 'a'.repeat(64), path: HOSTILE, sizeBytes: 10 } as never;
    const change = { action: 'move', key: HOSTILE, fromKey: HOSTILE } as Change;
    print({ type: 'upload-start', upload, resumed: false } as never);
    print({ type: 'upload-done', upload, mediaId: HOSTILE } as never);
    print({ type: 'upload-failed', upload, error: new Error(HOSTILE) } as never);
    print({ type: 'change-done', change, postId: HOSTILE } as never);
    print({ type: 'change-failed', change, error: new Error(HOSTILE) } as never);
    const watch = watchPrinter({ out: stream, err: stream, style: plain, label: 'Target', timezone: 'UTC', redraw: false });
    watch({ type: 'notice', at: new Date(0), message: HOSTILE } as never);
    watch({ type: 'apply-skipped', at: new Date(0), reason: HOSTILE } as never);
    watch({ type: 'error', at: new Date(0), during: 'plan', error: new Error(HOSTILE) } as never);
    expectEscaped(printed, { times: 13 });
  });

  it('watch: what set off a re-plan, and what changed since', () => {
    const trigger = { files: [{ file: HOSTILE, kind: 'saved' as const }], refreshed: null, stateChanged: false, draftsApplied: false } as never;
    expectEscaped(describeTrigger(trigger));
    const previous = createPlan(planInput({}));
    const plan = createPlan(planInput({ desired: [desired(HOSTILE, shape({ content: HOSTILE }), { file: HOSTILE })] }));
    expectEscaped(renderDelta({ at: new Date(0), trigger, plan, previous, delta: planDelta(previous, plan, new Set([HOSTILE])) }, plain, { timezone: 'UTC' }), { times: 3 });
  });
});
