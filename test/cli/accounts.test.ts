import { beforeAll, describe, expect, it } from 'vitest';
import { startTestEmulator } from '../helpers/emulator.js';
import { testdir } from '../helpers/testdir.js';
import { VariantProxy } from '../helpers/variant-proxy.js';
import { ACCOUNTS, projectFiles, reportingFixture, requireBuild, runCli, runJson } from './reporting-support.js';

beforeAll(requireBuild);

describe('postsync accounts', () => {
  it('lists every account with its alias, status and a summary of its rules', async () => {
    const emulator = await startTestEmulator({ fixture: reportingFixture() });
    try {
      const dir = await testdir({
        ...projectFiles(),
        // `ok` has two aliases, `slow` none, and one alias points at no account of the project.
        'postsync.yaml': `accounts:\n  ok: ${ACCOUNTS.ok}\n  main: ${ACCOUNTS.ok}\n  broken: ${ACCOUNTS.broken}\n  off: ${ACCOUNTS.off}\n  retired: 99999999-9999-4999-8999-999999999999\n`,
      });
      const api = ['--api-url', emulator.baseUrl];
      const report = await runJson(['accounts', ...api], { cwd: dir });
      expect(report.accounts.map((account: any) => [account.id, account.aliases, account.platform, account.handle, account.status])).toEqual([
        [ACCOUNTS.ok, ['ok', 'main'], 'photoC', '@ok', 'active'],
        [ACCOUNTS.slow, [], 'photoC', '@slow', 'active'],
        [ACCOUNTS.broken, ['broken'], 'photoC', '@broken', 'active'],
        [ACCOUNTS.off, ['off'], 'photoC', '@off', 'active'],
      ]);
      const ok = report.accounts[0].capabilities;
      expect(ok).toMatchObject({
        supported: true,
        available: true,
        reason: null,
        caption: { maxLength: 2200, unit: 'characters', requiredExcept: 'media' },
        attachments: { min: 1, max: 10 },
        images: { contentTypes: ['image/jpeg', 'image/png', 'image/webp'], maxBytes: 8 * 1024 * 1024 },
        videos: { contentTypes: ['video/mp4', 'video/quicktime'], minDurationSeconds: 3, maxDurationSeconds: 90 },
      });
      expect(ok.options.map((option: any) => option.name)).toEqual(['format', 'shareToFeed', 'link']);
      expect(report.accounts[3].capabilities).toMatchObject({ available: false, reason: 'token revoked by the owner' });
      expect(report.unknownAliases).toEqual([{ alias: 'retired', id: '99999999-9999-4999-8999-999999999999' }]);

      const human = await runCli(['accounts', ...api], { cwd: dir });
      expect(human.code, human.stderr).toBe(0);
      expect(human.stdout).toMatch(/ALIAS +ACCOUNT ID +PLATFORM +HANDLE +STATUS +POSTING/);
      expect(human.stdout).toMatch(new RegExp(`ok, main +${ACCOUNTS.ok} +photoC +@ok +active +available`));
      expect(human.stdout).toMatch(new RegExp(`- +${ACCOUNTS.slow} +photoC +@slow`));
      expect(human.stdout).toContain('unavailable: token revoked by the owner');
      expect(human.stdout).toContain('caption      up to 2200 characters; optional when the post has media');
      expect(human.stdout).toContain('attachments  1–10 media (up to 10 videos, story 1, images and videos mixed)');
      expect(human.stdout).toContain('images       jpeg, png, webp up to 8 MiB');
      expect(human.stdout).toContain('videos       mp4, quicktime (h264/hevc + aac) up to 100 MiB, 3 s to 90 s');
      expect(human.stdout).toContain('warning: the alias `retired` in postsync.yaml points at 99999999-9999-4999-8999-999999999999, which is not an account of this project');
    } finally {
      await emulator.close();
    }
  });

  it('lists the other accounts when the rules of one cannot be read, and names that one\'s problem on its line', async () => {
    const emulator = await startTestEmulator({ fixture: reportingFixture() });
    const proxy = await VariantProxy.start(emulator.baseUrl, {
      name: 'empty rules for one account',
      rewrite: (exchange, data) => (exchange.path === `/accounts/${ACCOUNTS.slow}/capabilities` ? { ...(data as object), rules: {} } : data),
    });
    try {
      const dir = await testdir({ ...projectFiles(), 'postsync.yaml': `accounts:\n  ok: ${ACCOUNTS.ok}\n` });
      const human = await runCli(['accounts', '--api-url', proxy.baseUrl], { cwd: dir });
      expect(human.code, human.stderr).toBe(0);
      expect(human.stdout).toMatch(new RegExp(`ok +${ACCOUNTS.ok} +photoC +@ok +active +available`));
      expect(human.stdout).toContain(`GET /accounts/${ACCOUNTS.slow}/capabilities: field \`rules.caption\` missing`);
    } finally {
      await proxy.close();
      await emulator.close();
    }
  });

  it('fails clearly when the key may not read accounts', async () => {
    const emulator = await startTestEmulator({ fixture: reportingFixture({ keys: [{ token: 'demo-key', permissions: ['posts-read'] }] }) });
    try {
      const dir = await testdir(projectFiles());
      const result = await runCli(['--api-url', emulator.baseUrl, 'accounts', '--json'], { cwd: dir });
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/^Error: .*listing accounts/);
    } finally {
      await emulator.close();
    }
  });
});
