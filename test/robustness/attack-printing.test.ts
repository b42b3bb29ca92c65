import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_API_KEY } from '../../src/emulator/index.js';
import { runCli } from '../helpers/cli.js';
import { useEmulator } from '../helpers/emulator.js';
import { HostileApi } from '../helpers/hostile-api.js';
import { testdir } from '../helpers/testdir.js';

const emulator = useEmulator();
let hostile: HostileApi | undefined;
afterEach(async () => {
  await hostile?.close();
  hostile = undefined;
});

describe('attack: printing the remote\'s words', () => {
  it('a line break in the remote\'s error message never starts a line of its own on stderr', async () => {
    const forged = 'Plan: 0 to create, 0 to update, 0 to delete.';
    hostile = await HostileApi.start(emulator().baseUrl, {
      misbehave: (_req, res, url) => {
        if (!url.pathname.endsWith('/posts')) return false;
        res.writeHead(403, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 'forbidden', message: `denied\r\n${forged}` } }));
        return true;
      },
    });
    const root = await testdir({ 'posts/a.md': '---\ntargets: []\n---\nHello\n' });
    const result = await runCli(['plan'], { cwd: root, env: { POSTSYNC_API_URL: hostile.baseUrl, POSTSYNC_API_KEY: DEMO_API_KEY } });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(forged);
    expect(result.stderr.split('\n').filter((line) => line.startsWith(forged))).toEqual([]);
  });

  it('a project id with control characters (ESC, CR, C1 CSI, bidi override) is escaped in the Target line of whoami and plan', async () => {
    const projectId = 'demo\u001b]0;owned\u0007\r::error::PWNED\u009b31m\u202eX';
    hostile = await HostileApi.start(emulator().baseUrl, {
      rewriteJson: (data) => {
        const session = data as { data?: { project?: { id?: string } } };
        if (session.data?.project?.id !== undefined) session.data.project.id = projectId;
        return data;
      },
    });
    const root = await testdir({ 'posts/a.md': '---\ntargets: []\n---\nHello\n' });
    for (const command of ['plan', 'whoami']) {
      const result = await runCli([command], { cwd: root, env: { POSTSYNC_API_URL: hostile.baseUrl, POSTSYNC_API_KEY: DEMO_API_KEY, GITHUB_ACTIONS: 'true' } });
      expect(`${result.stdout}${result.stderr}`, command).not.toMatch(/[\u001b\u0007\r\u009b\u202e]/);
    }
  });
});
