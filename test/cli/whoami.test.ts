import { beforeAll, describe, expect, it } from 'vitest';
import { startTestEmulator } from '../helpers/emulator.js';
import { testdir } from '../helpers/testdir.js';
import { projectFiles, reportingFixture, requireBuild, runCli, runJson } from './reporting-support.js';

beforeAll(requireBuild);

const SECRET = 'psk-live-Qm9vZmFzdGVyLXRlc3Qta2V5';

describe('postsync whoami', () => {
  it('shows project, expiry and permissions of a limited key, never the key', async () => {
    const expiresAt = new Date(Date.now() + 5 * 86_400_000 + 3_600_000).toISOString();
    const emulator = await startTestEmulator({ fixture: reportingFixture({ keys: [{ token: SECRET, permissions: ['accounts-read', 'posts-read', 'posts-write'], expiresAt }] }) });
    try {
      const dir = await testdir(projectFiles());
      const env = { POSTSYNC_API_KEY: SECRET };
      const json = await runCli(['--api-url', emulator.baseUrl, 'whoami', '--json'], { cwd: dir, env });
      expect(json.code, json.stderr).toBe(0);
      const report = JSON.parse(json.stdout);
      expect(report).toMatchObject({
        formatVersion: 1,
        command: 'whoami',
        target: { apiUrl: emulator.baseUrl, projectId: 'demo', local: false },
        project: { id: 'demo' },
        key: { source: 'POSTSYNC_API_KEY', expiresAt },
        permissions: ['accounts-read', 'posts-read', 'posts-write'],
      });
      expect(report.missingPermissions.map((missing: any) => missing.permission)).toEqual(['posts-publish', 'posts-delete', 'media-write']);

      const human = await runCli(['--api-url', emulator.baseUrl, 'whoami'], { cwd: dir, env });
      expect(human.code).toBe(0);
      expect(human.stdout).toMatch(/^Target: http:\/\/127\.0\.0\.1:\d+\/public\/v1 \(project demo\)\n/);
      expect(human.stdout).toContain('Project:     demo');
      expect(human.stdout).toContain('API key:     from POSTSYNC_API_KEY (not shown)');
      expect(human.stdout).toMatch(/Expires: {5}\w{3} \d{1,2} \w{3} \d{4}, \d{2}:\d{2}(:\d{2})? \(\+00:00\) \(in 5 days\); ask for a new key soon/);
      expect(human.stdout).toContain('- posts-delete: needed for apply --prune: deleting posts');
      for (const output of [json, human]) expect(output.stdout + output.stderr).not.toContain(SECRET);
    } finally {
      await emulator.close();
    }
  });

  it('names the embedded local API when no URL is configured, and refuses it under CI unless asked for', async () => {
    const dir = await testdir(projectFiles());
    const local = await runCli(['whoami'], { cwd: dir, env: { POSTSYNC_API_KEY: undefined } });
    expect(local.code, local.stderr).toBe(0);
    expect(local.stdout).toMatch(/^Target: local API \(embedded, \.postsync\/local-api\/, project demo\)/);
    expect(local.stdout).toContain("API key:     the local API's demo key (POSTSYNC_API_KEY is not set)");
    expect(local.stdout).toContain('Expires:     never');

    const ci = await runCli(['whoami', '--json'], { cwd: dir, env: { CI: 'true' } });
    expect(ci.code).toBe(1);
    expect(ci.stdout).toBe('');
    expect(ci.stderr).toContain('under CI postsync does not fall back to the local API');
  });

  it('explains a rejected key', async () => {
    const emulator = await startTestEmulator({ fixture: reportingFixture() });
    try {
      const dir = await testdir(projectFiles());
      const result = await runCli(['--api-url', emulator.baseUrl, 'whoami', '--json'], { cwd: dir, env: { POSTSYNC_API_KEY: 'not-a-key' } });
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/^Error: /);
      expect(result.stderr).not.toContain('not-a-key');
    } finally {
      await emulator.close();
    }
  });
});
