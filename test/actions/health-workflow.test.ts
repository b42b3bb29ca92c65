import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { initProject } from '../../src/init/init-project.js';
import { ACTION_REF } from '../../src/init/workflow-steps.js';
import { runCli } from '../helpers/cli.js';
import { useEmulator } from '../helpers/emulator.js';
import { testdir } from '../helpers/testdir.js';
import { startGitHubStandIn } from './github-issues-stand-in.js';
import { runWorkflow } from './workflow-runner.js';

const emulator = useEmulator();
const NOW = new Date('2026-11-21T12:00:00Z');
const TOKEN = 'ghs_health-check-token';
const SHA = '3f786850e387550fdab836ed7e6dc881de23001b';
const BROKEN_POST = '---\ntargets: []\nmedai: []\n---\nOops, a typo above.\n';

describe('the health check workflow', () => {
  it('opens one issue with every problem linked to its file and line, updates it, and closes it when all is well', async () => {
    const github = await startGitHubStandIn({ repository: 'acme/content', token: TOKEN });
    try {
      const workspace = await testdir();
      await initProject({ dir: workspace, now: NOW, timezone: 'UTC' });
      const cli = (...args: string[]) => runCli(['--api-url', emulator().baseUrl, ...args], { cwd: workspace, env: { POSTSYNC_API_KEY: 'demo-key' } });
      expect((await cli('apply', '--yes')).code).toBe(0);
      const state = JSON.parse(await readFile(join(workspace, '.postsync/state.json'), 'utf8'));
      const welcomeId = (Object.values(state.targets)[0] as { posts: Record<string, { postId: string }> }).posts['2026-11/welcome']!.postId;
      // Two things go wrong: a typo in a new file, and an edit of the post in the web app.
      await writeFile(join(workspace, 'posts/2026-11/broken.md'), BROKEN_POST);
      await emulator().api('PATCH', `/posts/${welcomeId}`, { body: { content: 'Edited in the web app' } });

      const workflow = join(workspace, '.github/workflows/postsync-health.yml');
      const run = () =>
        runWorkflow(workflow, {
          workspace,
          actionRef: ACTION_REF,
          secrets: { POSTSYNC_API_URL: emulator().baseUrl, POSTSYNC_API_READ_KEY: 'demo-key', GITHUB_TOKEN: TOKEN },
          github: { api_url: github.apiUrl, server_url: 'https://github.example', repository: 'acme/content', sha: SHA, run_id: '4242' },
        });
      let runs = await run();
      let job = runs.find((entry) => entry.job === 'health')!.result!;
      expect(job.status).toBe('success');
      expect(job.steps.find((step) => step.name === 'Report')!.stdout).toMatch(/3 problems: opened issue #1 /);
      expect(github.issues).toHaveLength(1);
      const [issue] = github.issues;
      expect(issue).toMatchObject({ title: 'postsync health: 3 problems', state: 'open', labels: ['postsync-health'] });
      const blob = `https://github.example/acme/content/blob/${SHA}`;
      expect(issue!.body).toContain('<!-- postsync-health calendar=. -->');
      expect(issue!.body).toContain('([run](https://github.example/acme/content/actions/runs/4242))');
      expect(issue!.body).toContain(`- [\`posts/2026-11/broken.md:3\`](${blob}/posts/2026-11/broken.md#L3): invalid file: unknown field \`medai\` (\`unknown-field\`)`);
      expect(issue!.body).toContain(`- [\`posts/2026-11/welcome.md:1\`](${blob}/posts/2026-11/welcome.md#L1): drifted: changed on the remote since the last apply`);
      expect(issue!.body).toContain(`- [\`posts/2026-11/welcome.md:1\`](${blob}/posts/2026-11/welcome.md#L1): not applied (update \`2026-11/welcome\`): drifted on the remote since the last apply: content`);

      // The next check finds the same issue by its marker and updates it: still one issue.
      await rm(join(workspace, 'posts/2026-11/broken.md'));
      runs = await run();
      expect(github.issues).toHaveLength(1);
      expect(github.issues[0]!.title).toBe('postsync health: 2 problems');
      expect(github.issues[0]!.body).not.toContain('broken.md');
      expect(github.requests.filter((request) => request.method === 'PATCH')).toHaveLength(1);

      // Apply puts the file's version back: all is well, and the issue is closed with a comment.
      expect((await cli('apply', '--yes')).code).toBe(0);
      runs = await run();
      job = runs.find((entry) => entry.job === 'health')!.result!;
      expect(job.steps.find((step) => step.name === 'Report')!.stdout).toContain('All is well: closed issue #1.');
      expect(github.issues[0]).toMatchObject({ state: 'closed', state_reason: 'completed' });
      expect(github.issues[0]!.comments).toEqual(['All is well again ([run](https://github.example/acme/content/actions/runs/4242)): the plan shows no changes and no managed post has problems.']);
      runs = await run();
      expect(runs.find((entry) => entry.job === 'health')!.result!.steps.find((step) => step.name === 'Report')!.stdout).toContain('All is well; no health issue is open.');
      expect(github.issues).toHaveLength(1);
      for (const entry of runs) for (const step of entry.result?.steps ?? []) expect(`${step.stdout}${step.stderr}`).not.toContain(TOKEN);
    } finally {
      await github.close();
    }
  }, 180_000);

  it('reports a check that could not run, with what it said', async () => {
    const github = await startGitHubStandIn({ repository: 'acme/content', token: TOKEN });
    try {
      const workspace = await testdir();
      await initProject({ dir: workspace, now: NOW, timezone: 'UTC' });
      const runs = await runWorkflow(join(workspace, '.github/workflows/postsync-health.yml'), {
        workspace,
        actionRef: ACTION_REF,
        // The API key secret is missing.
        secrets: { POSTSYNC_API_URL: emulator().baseUrl, GITHUB_TOKEN: TOKEN },
        github: { api_url: github.apiUrl, repository: 'acme/content', sha: SHA },
      });
      expect(runs.find((entry) => entry.job === 'health')!.result!.status).toBe('success');
      expect(github.issues).toHaveLength(1);
      expect(github.issues[0]!.title).toBe('postsync health: 2 problems');
      expect(github.issues[0]!.body).toContain('- `postsync plan --detailed-exitcode` could not run (exit 1):');
      expect(github.issues[0]!.body).toContain('No API key for');
    } finally {
      await github.close();
    }
  }, 180_000);
});
