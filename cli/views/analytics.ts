import type { AnalyticsItem } from '../../src/api/types.js';
import type { RemoteProject } from '../../src/plan/types.js';
import type { ProjectState } from '../../src/state/types.js';
import { renderCsv } from './csv.js';
import type { Style } from './style.js';
import { renderTable, type Column } from './table.js';
import { joinTerminal, term, terminalPath, type Terminal } from '../../src/text/terminal.js';
import { shownTime } from './format.js';

const METRICS = ['impressions', 'reach', 'likes', 'comments', 'shares', 'clicks', 'videoViews'] as const;
type Metric = (typeof METRICS)[number];

/** One published post/account pair, with the post's key and file where postsync manages it. */
export interface AnalyticsRow extends Pick<AnalyticsItem, 'postId' | 'socialAccountId' | 'platform' | 'externalPostId' | 'publishedAt' | Exclude<Metric, 'videoViews'>> {
  key: string | null;
  file: string | null;
  /** Alias from postsync.yaml, else the handle, else null. */
  account: string | null;
  /** Video platforms only. */
  videoViews: number | null;
}

export type Totals = Record<Metric, number>;

export interface AnalyticsReport {
  formatVersion: 1;
  command: 'analytics';
  target: RemoteProject;
  filters: { from: string | null; to: string | null; accountId: string | null; platform: string | null };
  rows: AnalyticsRow[];
  totals: Totals;
}

/** Joins analytics items with the state (post id → key, file), in the API's order (newest first). */
export function analyticsRows(items: readonly AnalyticsItem[], section: Pick<ProjectState, 'posts'>, accountName: (id: string) => string | undefined): AnalyticsRow[] {
  const byPostId = new Map(Object.entries(section.posts).map(([key, record]) => [record.postId, { key, file: record.file }]));
  return items.map((item) => {
    const owned = byPostId.get(item.postId);
    return {
      postId: item.postId,
      key: owned?.key ?? null,
      file: owned?.file ?? null,
      socialAccountId: item.socialAccountId,
      account: accountName(item.socialAccountId) ?? null,
      platform: item.platform,
      externalPostId: item.externalPostId,
      publishedAt: item.publishedAt,
      impressions: item.impressions,
      reach: item.reach,
      likes: item.likes,
      comments: item.comments,
      shares: item.shares,
      clicks: item.clicks,
      videoViews: item.videoViews ?? null,
    };
  });
}

export function totalsOf(rows: readonly AnalyticsRow[]): Totals {
  const totals = Object.fromEntries(METRICS.map((metric) => [metric, 0])) as Totals;
  for (const row of rows) for (const metric of METRICS) totals[metric] += row[metric] ?? 0;
  return totals;
}

const number = (value: number | null) => (value === null ? '' : value.toLocaleString('en-US'));

export function renderAnalyticsTable(report: AnalyticsReport, options: { label: string; style: Style; timezone: string }): Terminal {
  const { style } = options;
  const out = [term`${options.label}`, term``];
  if (report.rows.length === 0) return joinTerminal([...out, term`No published posts match these filters.`], '\n');
  const columns: Column[] = [
    { header: 'POST' },
    { header: 'ACCOUNT' },
    { header: 'PLATFORM' },
    { header: 'PUBLISHED' },
    ...['IMPRESSIONS', 'REACH', 'LIKES', 'COMMENTS', 'SHARES', 'CLICKS', 'VIDEO VIEWS'].map((header): Column => ({ header, align: 'right' })),
  ];
  const rows = report.rows.map((row) => [
    row.file === null ? style.dim(term`not managed: ${row.postId}`) : terminalPath(row.file),
    term`${row.account ?? row.socialAccountId}`,
    term`${row.platform}`,
    row.publishedAt === null ? term`` : shownTime(row.publishedAt, options.timezone),
    ...METRICS.map((metric) => term`${number(row[metric])}`),
  ]);
  const anyVideo = report.rows.some((row) => row.videoViews !== null);
  const footer = [term`Total (${report.rows.length} row${report.rows.length === 1 ? '' : 's'})`, term``, term``, term``, ...METRICS.map((metric) => term`${metric === 'videoViews' && !anyVideo ? '' : number(report.totals[metric])}`)];
  out.push(renderTable(columns, rows, { style, footer }));
  return joinTerminal(out, '\n');
}

export function renderAnalyticsCsv(report: AnalyticsReport): Terminal {
  const header = ['postId', 'key', 'file', 'socialAccountId', 'account', 'platform', 'externalPostId', 'publishedAt', ...METRICS];
  return renderCsv(
    header,
    report.rows.map((row) => [row.postId, row.key, row.file, row.socialAccountId, row.account, row.platform, row.externalPostId, row.publishedAt, ...METRICS.map((metric) => row[metric])]),
  );
}
