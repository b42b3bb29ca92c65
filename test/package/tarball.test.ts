import { execFile, spawn } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { cliEnv } from '../helpers/cli.js';
import { testdir } from '../helpers/testdir.js';

/**
 * The package as `npm pack` makes it (the manifest `prepack` leaves: scripts/pack-manifest.mjs),
 * installed into an empty folder with --ignore-scripts, offline: what a user gets. It runs from
 * there, with nothing of this repository. Packs the build `npm test` made (no rebuild).
 */
const REPO_ROOT = new URL('../..', import.meta.url).pathname;
const run = promisify(execFile);

let tarball = '';
let files: { path: string; size: number }[] = [];
let installed = '';

beforeAll(async () => {
  const out = await testdir();
  await run(process.execPath, ['scripts/pack-manifest.mjs', 'strip'], { cwd: REPO_ROOT });
  try {
    const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', out], { cwd: REPO_ROOT });
    const [packed] = JSON.parse(stdout) as { filename: string; files: { path: string; size: number }[] }[];
    tarball = join(out, packed!.filename);
    files = packed!.files;
  } finally {
    await run(process.execPath, ['scripts/pack-manifest.mjs', 'restore'], { cwd: REPO_ROOT });
  }
  installed = await testdir();
  await writeFile(join(installed, 'package.json'), '{ "name": "content", "version": "1.0.0", "private": true }\n');
  await run('npm', ['install', '--ignore-scripts', '--offline', '--no-audit', '--no-fund', tarball], { cwd: installed });
}, 300_000);

/** `postsync …args` from the installed package, in `cwd`. */
function postsync(args: string[], cwd: string) {
  return run(process.execPath, [join(installed, 'node_modules/postsync/dist/cli/main.js'), ...args], { cwd, env: cliEnv() });
}

/** Starts a long-running `postsync …args`, waits for the first stdout line matching `ready`, then stops it; resolves with that line and the exit code. */
async function startAndStop(args: string[], cwd: string, ready: RegExp): Promise<{ line: string; code: number | null }> {
  const child = spawn(process.execPath, [join(installed, 'node_modules/postsync/dist/cli/main.js'), ...args], { cwd, env: cliEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (text) => ready.test(text) && resolve(text));
    child.once('exit', (code) => reject(new Error(`postsync ${args.join(' ')} exited with ${code} before it was ready`)));
  });
  child.kill('SIGINT');
  return { line, code: await exited };
}

describe('the package npm pack makes', () => {
  it('ships what runs, and installs with no dependency and no script', async () => {
    const paths = files.map((file) => file.path);
    for (const path of ['dist/cli/main.js', 'action/postsync.mjs', 'action/parse-worker.mjs', 'action/postsync-code.mjs', 'action/postsync-generated.mjs', 'action/third-party.mjs', 'action/rolldown-runtime.mjs', 'action.yml', 'LICENSE', 'SECURITY.md', 'CONTRIBUTING.md', 'README.md', 'examples/postsync.yaml', 'schemas/config.schema.json']) expect(paths).toContain(path);
    expect(paths.filter((path) => path.startsWith('dist/src/') || path.startsWith('docs/development/') || path.endsWith('.map') || path.startsWith('dist/action/') || path.endsWith('.mjs') && path.startsWith('examples/'))).toEqual([]);
    const manifest = JSON.parse(await readFile(join(installed, 'node_modules/postsync/package.json'), 'utf8')) as { dependencies?: object; scripts: Record<string, string> };
    expect(manifest.dependencies).toBeUndefined();
    expect(Object.keys(manifest.scripts).filter((name) => ['preinstall', 'install', 'postinstall', 'prepare'].includes(name))).toEqual([]);
    // postsync alone: everything it runs is in dist/cli.
    expect((await readdir(join(installed, 'node_modules'))).filter((name) => !name.startsWith('.'))).toEqual(['postsync']);
  });

  it('runs init --example, plan, apply, watch --calendar and serve from the install', async () => {
    await postsync(['init', '--example', '--dir', 'calendar'], installed);
    const project = join(installed, 'calendar');
    expect((await readFile(join(project, 'postsync.yaml'), 'utf8')).split('\n')[0]).toBe('# yaml-language-server: $schema=node_modules/postsync/schemas/config.schema.json');
    expect((await postsync(['plan'], project)).stdout).toContain('26 to create');
    expect((await postsync(['apply', '--yes'], project)).stdout).toContain('Apply complete: 26 created');
    expect((await postsync(['plan', '--detailed-exitcode'], project)).stdout).toContain('No changes.');
    const watch = await startAndStop(['watch', '--calendar', '--port', '0'], project, /http:\/\/127\.0\.0\.1:\d+/);
    expect(watch.line).toMatch(/http:\/\/127\.0\.0\.1:\d+/);
    const serve = await startAndStop(['serve', '--port', '0'], installed, /^listening on /);
    expect(serve.line).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+\/public\/v1$/);
  }, 180_000);
});
