import { out } from '../output.js';
import type { Command } from 'commander';
import { readAnalytics } from '../../src/reports/read-analytics.js';
import { globalOptions, openProject } from '../context.js';
import { analyticsRows, renderAnalyticsCsv, renderAnalyticsTable, totalsOf, type AnalyticsReport } from '../views/analytics.js';
import { term, terminalJson } from '../../src/text/terminal.js';

export type AnalyticsFormat = 'table' | 'csv' | 'json';

export interface AnalyticsFlags {
  from?: string;
  to?: string;
  account?: string;
  platform?: string;
  format?: AnalyticsFormat;
  json?: boolean;
}

function outputFormat(flags: AnalyticsFlags): AnalyticsFormat {
  if (flags.json) return 'json';
  return flags.format ?? (process.stdout.isTTY === true ? 'table' : 'csv');
}

/** One row per published post/account pair, joined with file keys through the state. */
export async function runAnalytics(flags: AnalyticsFlags, command: Command): Promise<number> {
  const format = outputFormat(flags);
  const { config, connection, style } = await openProject(globalOptions(command));
  try {
    const { query, items, section, accountNames } = await readAnalytics({ config, connection, filters: flags });
    const rows = analyticsRows(items, section, (id) => accountNames.get(id));
    const report: AnalyticsReport = {
      formatVersion: 1,
      command: 'analytics',
      target: connection.project,
      filters: { from: query.from ?? null, to: query.to ?? null, accountId: query.accountId ?? null, platform: query.platform ?? null },
      rows,
      totals: totalsOf(rows),
    };
    if (format === 'json') out.write(terminalJson(report));
    else if (format === 'csv') out.write(renderAnalyticsCsv(report));
    else out.write(term`${renderAnalyticsTable(report, { label: connection.label, style, timezone: config.timezone })}\n`);
    return 0;
  } finally {
    await connection.close();
  }
}
