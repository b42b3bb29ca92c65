import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, DEMO_API_KEY } from '../../src/emulator/index.js';
import { demoFixture } from '../../src/emulator/fixture/demo-fixture.js';
import { runCli } from '../helpers/cli.js';
import { useEmulator } from '../helpers/emulator.js';
import { demoProject, post } from './project.js';

const fixture = demoFixture();
for (const account of fixture.projects[0]!.accounts ?? []) {
  if (account.id === DEMO_ACCOUNTS.short) Object.assign(account, { available: false, unavailableReason: 'the account was disconnected by its owner' });
}
const emulator = useEmulator({ fixture });

describe('an unavailable account', () => {
  it('blocks only the posts that target it, with the reason, and the rest is applied', async () => {
    const api = emulator();
    const dir = await demoProject({
      'photo.md': post({ body: 'Fine.' }),
      'short.md': post({ body: 'Cannot go out.', targets: '[short]', media: '[media/teaser.mp4]' }),
    });
    const result = await runCli(['--api-url', api.baseUrl, 'apply', '--yes'], { cwd: dir, env: { POSTSYNC_API_KEY: DEMO_API_KEY } });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('! blocked short');
    expect(result.stdout).toContain('the account was disconnected by its owner');
    expect(result.stdout).toContain('Apply complete: 1 created');
    const remote = (await api.api('GET', '/posts')).body.data.items as { content: string }[];
    expect(remote.map((p) => p.content)).toEqual(['Fine.']);
  });
});
