import { beforeAll, describe, expect, it } from 'vitest';
import { startTestEmulator } from '../helpers/emulator.js';
import { testdir } from '../helpers/testdir.js';
import { ACCOUNTS, hoursFromNow, onlySection, postFile, projectFiles, readStateFile, reportingFixture, requireBuild, runCli, runJson } from './reporting-support.js';

beforeAll(requireBuild);

const METRICS = ['impressions', 'reach', 'likes', 'comments', 'shares', 'clicks'] as const;

/** Splits RFC 4180 text into records of fields (quoted fields may hold commas, quotes and line breaks). */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') (field += '"'), i++;
      else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') record.push(field), (field = '');
    else if (char === '\r' && text[i + 1] === '\n') record.push(field), records.push(record), (record = []), (field = ''), i++;
    else field += char;
  }
  return records;
}

describe('postsync analytics', () => {
  it('shows one row per published post and account, joined with the post files, as table, CSV and JSON', async () => {
    const emulator = await startTestEmulator({ fixture: reportingFixture() });
    try {
      const api = ['--api-url', emulator.baseUrl];
      const first = hoursFromNow(1);
      const second = hoursFromNow(2);
      const dir = await testdir(
        projectFiles({
          'posts/launch, "big".md': postFile({ text: 'Launch', targets: ['ok', 'slow'], scheduledAt: first, media: true }),
          'posts/teaser.md': postFile({ text: 'Teaser', targets: ['ok'], scheduledAt: second, media: true }),
        }),
      );
      const applied = await runCli([...api, 'apply', '--yes'], { cwd: dir });
      expect(applied.code, applied.stderr + applied.stdout).toBe(0);
      const section = onlySection(await readStateFile(dir));
      const mediaId = Object.values(section.media)[0]!.mediaId;
      const created = await emulator.api('POST', '/posts', { body: { content: 'From the web app', targets: [{ socialAccountId: ACCOUNTS.ok }], mediaIds: [mediaId] }, headers: { 'Idempotency-Key': 'web-1' } });
      const unmanagedId = created.body.data.id as string;
      expect((await emulator.api('PATCH', `/posts/${unmanagedId}`, { body: { scheduledAt: first } })).status).toBe(200);
      await emulator.advanceClock(3 * 3600);

      const report = await runJson(['analytics', ...api], { cwd: dir });
      const launchId = section.posts['launch, "big"']!.postId;
      const teaserId = section.posts.teaser!.postId;
      expect(report.rows).toHaveLength(4);
      const pairs = report.rows.map((row: any) => [row.postId, row.key, row.file, row.account]);
      expect(pairs).toEqual(
        expect.arrayContaining([
          [launchId, 'launch, "big"', 'posts/launch, "big".md', 'ok'],
          [launchId, 'launch, "big"', 'posts/launch, "big".md', 'slow'],
          [teaserId, 'teaser', 'posts/teaser.md', 'ok'],
          [unmanagedId, null, null, 'ok'],
        ]),
      );
      expect(report.rows[0].postId).toBe(teaserId);
      for (const metric of METRICS) expect(report.totals[metric]).toBe(report.rows.reduce((sum: number, row: any) => sum + row[metric], 0));

      const csv = await runCli(['analytics', ...api, '--format', 'csv'], { cwd: dir });
      expect(csv.code).toBe(0);
      expect(csv.stdout.endsWith('\r\n')).toBe(true);
      expect(csv.stdout).toContain('"posts/launch, ""big"".md"');
      const records = parseCsv(csv.stdout);
      expect(records[0]).toEqual(['postId', 'key', 'file', 'socialAccountId', 'account', 'platform', 'externalPostId', 'publishedAt', ...METRICS, 'videoViews']);
      expect(records).toHaveLength(5);
      const launchRecord = records.find((record) => record[0] === launchId && record[4] === 'slow')!;
      const launchRow = report.rows.find((row: any) => row.postId === launchId && row.account === 'slow');
      expect(launchRecord.slice(1, 3)).toEqual(['launch, "big"', 'posts/launch, "big".md']);
      expect(launchRecord[8]).toBe(String(launchRow.impressions));

      const filtered = await runJson(['analytics', ...api, '--account', 'ok', '--from', new Date(Date.parse(first) + 30 * 60_000).toISOString()], { cwd: dir });
      expect(filtered.filters).toMatchObject({ accountId: ACCOUNTS.ok });
      expect(filtered.rows.map((row: any) => [row.key, row.account])).toEqual([['teaser', 'ok']]);

      const table = await runCli(['analytics', ...api, '--format', 'table'], { cwd: dir });
      expect(table.code).toBe(0);
      expect(table.stdout).toMatch(/POST +ACCOUNT +PLATFORM +PUBLISHED +IMPRESSIONS +REACH +LIKES +COMMENTS +SHARES +CLICKS +VIDEO VIEWS/);
      expect(table.stdout).toMatch(new RegExp(`not managed: ${unmanagedId} +ok +photoC`));
      const totalLine = table.stdout.split('\n').find((line) => line.startsWith('Total (4 rows)'))!;
      expect(totalLine.trim().split(/ {2,}/).slice(1)).toEqual(METRICS.map((metric) => report.totals[metric].toLocaleString('en-US')));
    } finally {
      await emulator.close();
    }
  });

  it('refuses an unknown account and a bad date before asking for analytics', async () => {
    const emulator = await startTestEmulator({ fixture: reportingFixture() });
    try {
      const dir = await testdir(projectFiles());
      const api = ['--api-url', emulator.baseUrl];
      const account = await runCli(['analytics', ...api, '--account', 'oks', '--json'], { cwd: dir });
      expect(account.code).toBe(1);
      expect(account.stdout).toBe('');
      expect(account.stderr).toContain('--account "oks" is neither an alias from postsync.yaml nor an account uuid');
      expect(account.stderr).toContain('did you mean `ok`?');
      const date = await runCli(['analytics', ...api, '--from', '2026-13-01'], { cwd: dir });
      expect(date.code).toBe(1);
      expect(date.stderr).toContain('--from "2026-13-01" is not a date or time');
      expect((await emulator.requestLog()).some((entry) => entry.path.startsWith('/public/v1/analytics'))).toBe(false);
    } finally {
      await emulator.close();
    }
  });
});
