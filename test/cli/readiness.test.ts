import { describe, expect, it } from 'vitest';
import { DEMO_API_KEY } from '../../src/emulator/index.js';
import { runCli } from '../helpers/cli.js';
import { useEmulator } from '../helpers/emulator.js';
import { demoProject, post } from '../e2e/project.js';

const emulator = useEmulator();
const env = { POSTSYNC_API_KEY: DEMO_API_KEY };
/** Several CLI runs per test: generous, it only catches a hung CLI. */
const TIMEOUT_MS = 120_000;

/** Three drafts: one ready, one photo post without its image, one video post without title or video; and a scheduled post. */
function drafts(): Promise<string> {
  return demoProject({
    'ready.md': post({ body: 'Ready when we are.' }),
    'photo-idea.md': '---\ntargets: [photo]\n---\nPhoto TBD.\n',
    'video-idea.md': '---\ntargets: [video]\n---\nA video, some day.\n',
    'launch.md': post({ body: 'Launch day!', scheduledAt: `${new Date().getUTCFullYear() + 1}-06-01 09:00` }),
  });
}

function cli(dir: string, args: string[]) {
  return runCli(['--api-url', emulator().baseUrl, ...args], { cwd: dir, env });
}

describe('readiness of drafts', () => {
  it('validate shows each draft as ready to schedule or with what is missing', async () => {
    const dir = await drafts();
    const human = await cli(dir, ['validate']);
    expect(human.code, human.stdout + human.stderr).toBe(0);
    expect(human.stdout).toContain('Drafts (3, 2 not ready to schedule):');
    expect(human.stdout).toMatch(/ {2}posts\/photo-idea\.md\s+not ready to schedule: `photo` \(photoC\) needs at least 1 image or video\n/);
    expect(human.stdout).toMatch(/ {2}posts\/ready\.md\s+ready to schedule\n/);
    expect(human.stdout).toMatch(/ {2}posts\/video-idea\.md\s+not ready to schedule: .*vidATitle.*; /);
    expect(human.stdout).not.toMatch(/posts\/launch\.md\s+(not )?ready/);
    expect(human.stdout).toContain('4 posts valid. 2 drafts not ready to schedule yet.');

    const json = JSON.parse((await cli(dir, ['validate', '--json'])).stdout) as { drafts: { key: string; file: string; ready: boolean; missing: string[] }[] };
    expect(json.drafts.map((draft) => [draft.key, draft.ready])).toEqual([['photo-idea', false], ['ready', true], ['video-idea', false]]);
    expect(json.drafts[0]!.missing).toEqual(['`photo` (photoC) needs at least 1 image or video']);
    expect(json.drafts[2]!.missing.length).toBeGreaterThanOrEqual(2);
  }, TIMEOUT_MS);

  it('status shows each managed draft as ready to schedule or with what is missing', async () => {
    const dir = await drafts();
    expect((await cli(dir, ['apply', '--yes'])).code).toBe(0);
    const human = await cli(dir, ['status']);
    expect(human.code, human.stdout + human.stderr).toBe(0);
    expect(human.stdout).toMatch(/posts\/photo-idea\.md .*\n {2}draft · not ready to schedule: `photo` \(photoC\) needs at least 1 image/);
    expect(human.stdout).toMatch(/posts\/ready\.md .*\n {2}draft · ready to schedule\n/);
    expect(human.stdout).toMatch(/posts\/launch\.md .*\n {2}scheduled · for [^\n·]*\n/);

    const json = JSON.parse((await cli(dir, ['status', '--json'])).stdout) as { posts: { key: string; readiness: { ready: boolean; missing: string[] } | null }[] };
    expect(json.posts.map((p) => [p.key, p.readiness?.ready ?? null])).toEqual([['launch', null], ['photo-idea', false], ['ready', true], ['video-idea', false]]);
  }, TIMEOUT_MS);
});
