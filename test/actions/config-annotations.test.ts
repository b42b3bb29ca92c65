import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { testdir } from '../helpers/testdir.js';

describe('postsync.yaml problems in GitHub Actions', () => {
  it('are annotated inline, relative to the repository root', async () => {
    const workspace = await testdir({ 'social/postsync.yaml': 'timezone: Europe/Berlin\ncontnet: posts\n', 'social/posts/.keep': '' });
    const result = await runCli(['-C', 'social', 'validate'], { cwd: workspace, env: { GITHUB_ACTIONS: 'true', GITHUB_WORKSPACE: workspace, CI: 'true' } });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^::error file=social\/postsync\.yaml,line=2,col=1,title=postsync unknown-field::.*contnet/m);
  });

  it('print no workflow commands outside GitHub Actions', async () => {
    const dir = await testdir({ 'postsync.yaml': 'contnet: posts\n' });
    const result = await runCli(['validate'], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stderr).not.toContain('::error');
  });
});
