import { cp, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PostShape } from '../../src/content/types.js';
import { DEMO_API_KEY } from '../../src/emulator/index.js';
import { runCli } from '../helpers/cli.js';
import { useEmulator } from '../helpers/emulator.js';
import { testdir } from '../helpers/testdir.js';

const EXAMPLES = new URL('../../examples', import.meta.url).pathname;
const emulator = useEmulator();

async function postFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true });
  return entries.filter((entry) => entry.endsWith('.md')).sort();
}

/** Posts the files stand for: one each, but `roaster-wednesday.md` repeats on 4 Wednesdays. */
const postCount = (files: readonly string[]) => files.length + 3;

describe('examples/', () => {
  it('validates against the demo accounts of the API', async () => {
    const files = await postFiles(join(EXAMPLES, 'posts'));
    expect(files.length).toBeGreaterThanOrEqual(15);
    expect(files.length).toBeLessThanOrEqual(25);
    const result = await runCli(['-C', EXAMPLES, '--api-url', emulator().baseUrl, 'validate'], { cwd: EXAMPLES, env: { POSTSYNC_API_KEY: DEMO_API_KEY } });
    // One readiness warning: the idea without accounts is a fine draft, not ready to schedule.
    expect(result.stdout).toMatch(/^posts\/2026-12\/gift-card-ideas\.md warning not ready to schedule: needs an account under `targets:` \[schedule-without-targets\]\n/);
    expect(result.stdout).toContain('  posts/2026-12/gift-card-ideas.md    not ready to schedule: needs an account under `targets:`\n');
    expect(result.stdout).toMatch(new RegExp(`\\n\\nDrafts \\((\\d+), 1 not ready to schedule\\):\\n(  posts/\\S+\\.md +(ready to schedule|not ready to schedule: .*)\\n)+\\n${postCount(files)} posts valid\\. 1 draft not ready to schedule yet\\.\\n$`));
    expect(result.code).toBe(0);
  });

  it('has drafts, scheduled posts, per-account texts, the options of every platform, and the calendar policies', async () => {
    const result = await runCli(['--api-url', emulator().baseUrl, 'plan', '--json'], { cwd: EXAMPLES, env: { POSTSYNC_API_KEY: DEMO_API_KEY } });
    const changes = (JSON.parse(result.stdout) as { changes: { desired: PostShape; slot?: unknown; occurrence?: unknown }[] }).changes;
    const shapes = changes.map((change) => change.desired);
    expect(changes.filter((change) => change.occurrence !== undefined)).toHaveLength(4);
    expect(changes.filter((change) => change.slot !== undefined)).toHaveLength(1);
    expect(shapes.some((shape) => shape.content.includes('{{'))).toBe(false);
    const targets = shapes.flatMap((shape) => shape.targets);
    const options = new Set(targets.flatMap((target) => Object.keys(target.options)));
    expect(shapes.filter((shape) => shape.scheduledAt === null).length).toBeGreaterThanOrEqual(4);
    expect(shapes.filter((shape) => shape.scheduledAt?.startsWith('2027-')).length).toBeGreaterThanOrEqual(12);
    expect(targets.filter((target) => target.contentOverride !== undefined).length).toBeGreaterThanOrEqual(3);
    for (const option of ['format', 'shareToFeed', 'link', 'vidATitle', 'vidADescription', 'vidATags', 'vidAMadeForKids', 'shortBCaption', 'shortBAllowComment', 'shortBAllowDuet', 'shortBAllowStitch', 'shortBDisclose', 'shortBBrandOrganic']) {
      expect(options).toContain(option);
    }
    expect(new Set(targets.map((target) => target.socialAccountId)).size).toBe(3);
  });

  it('applies on the embedded local API, as the README says, and then plans no changes', async () => {
    const copy = await testdir();
    await cp(EXAMPLES, copy, { recursive: true, filter: (source) => !source.includes('/.postsync') });
    let result = await runCli(['-C', copy, 'plan'], { cwd: copy });
    const posts = postCount(await postFiles(join(copy, 'posts')));
    expect(result.stdout.split('\n')[0]).toBe('Target: local API (embedded, .postsync/local-api/, project demo)');
    expect(result.stdout).toContain(`Plan: ${posts} to create, 0 to update, 0 to delete.`);
    // The README's set-up command, as CI runs it: CI=true, the local API asked for with --local.
    result = await runCli(['-C', copy, '--local', 'apply', '--yes'], { cwd: copy, env: { CI: 'true' } });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(new RegExp(`Apply complete: ${posts} created, 0 updated, 0 deleted, 0 moved, 0 adopted; \\d+ media uploaded\\.`));
    result = await runCli(['-C', copy, 'plan', '--detailed-exitcode'], { cwd: copy });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('No changes. The remote matches your files.');
  });
});
