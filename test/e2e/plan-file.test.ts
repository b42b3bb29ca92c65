import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_API_KEY } from '../../src/emulator/index.js';
import { runCli } from '../helpers/cli.js';
import { useEmulator } from '../helpers/emulator.js';
import { demoProject, post } from './project.js';

const emulator = useEmulator();
const env = { POSTSYNC_API_KEY: DEMO_API_KEY };

describe('saved plans', () => {
  it('applies exactly the saved plan, even after the files changed', async () => {
    const api = emulator();
    const dir = await demoProject({ 'a.md': post({ body: 'Planned text.' }) });
    const cli = (...args: string[]) => runCli(['--api-url', api.baseUrl, ...args], { cwd: dir, env });
    const planned = await cli('plan', '--out', 'plan.json');
    expect(planned.code).toBe(0);
    expect(planned.stdout).toContain('Apply exactly it with: postsync apply plan.json');
    const saved = JSON.parse(await readFile(join(dir, 'plan.json'), 'utf8'));
    expect(saved).toMatchObject({ formatVersion: 1, summary: { create: 1 } });
    expect(JSON.stringify(saved)).not.toContain(DEMO_API_KEY);

    await writeFile(join(dir, 'posts/a.md'), post({ body: 'Edited after planning.' }));
    const applied = await cli('apply', 'plan.json', '--yes');
    expect(applied.code).toBe(0);
    const id = Object.values(JSON.parse(await readFile(join(dir, '.postsync/state.json'), 'utf8')).targets as Record<string, { posts: Record<string, { postId: string }> }>)[0]!.posts.a!.postId;
    expect((await api.api('GET', `/posts/${id}`)).body.data.content).toBe('Planned text.');
    // The next plan catches up with the edit.
    expect((await cli('plan')).stdout).toContain('content: [-Planned-]{+Edited+} [-text-]{+after planning+}.');
  });

  it('keeps a post blocked by a broken file blocked: apply PLANFILE applies the rest and exits 1, with --strict nothing', async () => {
    const api = emulator();
    // A fresh remote: a post left by an earlier test with this text would be adopted, not created.
    await api.reset();
    const dir = await demoProject({ 'a.md': post({ body: 'Planned text.' }), 'bad.md': '---\ntargets: [nobody]\n---\ny\n' });
    const cli = (...args: string[]) => runCli(['--api-url', api.baseUrl, ...args], { cwd: dir, env });
    expect((await cli('plan', '--out', 'plan.json')).code).toBe(1);
    const saved = JSON.parse(await readFile(join(dir, 'plan.json'), 'utf8'));
    expect(saved.changes.map((change: { action: string; key: string }) => `${change.action} ${change.key}`)).toEqual(['create a', 'blocked bad']);

    await api.clearLog();
    const strict = await cli('apply', 'plan.json', '--yes', '--strict');
    expect(strict.code).toBe(1);
    expect((await api.requestLog()).filter((entry) => entry.method !== 'GET')).toEqual([]);
    const applied = await cli('apply', 'plan.json', '--yes');
    expect(applied.code, applied.stdout + applied.stderr).toBe(1);
    expect(applied.stdout).toContain('Applied 1, blocked 1 (invalid files): 1 created');
  });

  it('refuses a stale plan with exit 3 and sends no write', async () => {
    const api = emulator();
    const dir = await demoProject({ 'a.md': post({ body: 'One.' }) });
    const cli = (...args: string[]) => runCli(['--api-url', api.baseUrl, ...args], { cwd: dir, env });
    expect((await cli('apply', '--yes')).code).toBe(0);
    await writeFile(join(dir, 'posts/a.md'), post({ body: 'Two.' }));
    expect((await cli('plan', '--out', 'plan.json')).code).toBe(0);

    const id = Object.values(JSON.parse(await readFile(join(dir, '.postsync/state.json'), 'utf8')).targets as Record<string, { posts: Record<string, { postId: string }> }>)[0]!.posts.a!.postId;
    expect((await api.api('PATCH', `/posts/${id}`, { body: { content: 'Changed by a colleague.' } })).status).toBe(200);
    await api.clearLog();
    const stale = await cli('apply', 'plan.json', '--yes');
    expect(stale.code).toBe(3);
    expect(stale.stderr).toContain('a');
    expect(stale.stderr).toMatch(/changed|stale/i);
    expect(stale.stderr).toContain('Run `postsync plan` again');
    expect((await api.requestLog()).filter((entry) => entry.method !== 'GET')).toEqual([]);
  });

  it('refuses a plan made against another state (another apply ran since)', async () => {
    const api = emulator();
    const dir = await demoProject({ 'a.md': post({ body: 'One.' }), 'b.md': post({ body: 'Two.' }) });
    const cli = (...args: string[]) => runCli(['--api-url', api.baseUrl, ...args], { cwd: dir, env });
    expect((await cli('plan', '--out', 'plan.json')).code).toBe(0);
    expect((await cli('apply', '--yes', '--target', 'a')).code).toBe(0);
    const stale = await cli('apply', 'plan.json', '--yes');
    expect(stale.code).toBe(3);
    expect(stale.stderr).toContain('the state file changed since the plan was made');
  });
});

describe('targets and output contracts', () => {
  it('under CI, refuses to fall back to the local API unless asked with --local', async () => {
    const dir = await demoProject({ 'a.md': post({ body: 'x' }) });
    const refused = await runCli(['plan'], { cwd: dir, env: { CI: 'true' } });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('under CI postsync does not fall back to the local API');
    const local = await runCli(['--local', 'plan'], { cwd: dir, env: { CI: 'true' } });
    expect(local.code).toBe(0);
    expect(local.stdout.split('\n')[0]).toBe('Target: local API (embedded, .postsync/local-api/, project demo)');
  });

  it('uses the local API with its own key, whatever POSTSYNC_API_KEY holds for a real project', async () => {
    const dir = await demoProject({ 'a.md': post({ body: 'x' }) });
    const result = await runCli(['plan'], { cwd: dir, env: { POSTSYNC_API_KEY: 'a-production-key' } });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('Plan: 1 to create');
  });

  it('prints exactly one JSON document with --json', async () => {
    const api = emulator();
    const dir = await demoProject({ 'a.md': post({ body: 'x' }), 'bad.md': '---\ntargets: [nobody]\n---\ny\n' });
    const result = await runCli(['--api-url', api.baseUrl, 'plan', '--json'], { cwd: dir, env });
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout);
    expect(report).toMatchObject({ formatVersion: 1, command: 'plan', target: { projectId: 'demo' }, summary: { create: 1, adopt: 0, update: 0, delete: 0, move: 0, noop: 0, blocked: 1, blockedByErrors: 1, draftsNotReady: 0 } });
    expect(report.changes[0]).toMatchObject({ action: 'create', key: 'a', file: 'posts/a.md', postId: null, reasons: ['new file'] });
    expect(report.diagnostics[0]).toMatchObject({ severity: 'error', file: 'posts/bad.md', line: 2 });
    // The bad file's post is blocked, with its reasons and the file's diagnostics.
    expect(report.changes[1]).toMatchObject({ action: 'blocked', key: 'bad', file: 'posts/bad.md', postId: null, diagnostics: [report.diagnostics[0]] });
    expect(report.changes[1].reasons[0]).toMatch(/^posts\/bad\.md has an error: /);
  });

  it('needs --yes outside a terminal and says so', async () => {
    const dir = await demoProject({ 'a.md': post({ body: 'x' }) });
    const result = await runCli(['apply'], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('pass --yes');
  });
});
