import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { schemaReference } from '../../src/init/schema-reference.js';
import { WORKFLOW_FILES } from '../../src/init/workflows.js';
import { runCli } from '../helpers/cli.js';
import { testdir } from '../helpers/testdir.js';

const REPO_ROOT = new URL('../..', import.meta.url).pathname;

async function filesUnder(dir: string, prefix = ''): Promise<string[]> {
  const entries = await readdir(join(dir, prefix), { withFileTypes: true });
  const nested = await Promise.all(entries.map((entry) => (entry.isDirectory() ? filesUnder(dir, join(prefix, entry.name)) : [join(prefix, entry.name)])));
  return nested.flat().sort();
}

describe('postsync init', () => {
  it('writes a project that plans and applies on the embedded local API right away', async () => {
    const dir = await testdir();
    const init = await runCli(['init', '--dir', 'calendar'], { cwd: dir });
    expect(init.stderr).toBe('');
    expect(init.code).toBe(0);
    const project = join(dir, 'calendar');
    const month = /posts\/(\d{4}-\d{2})\/welcome\.md/.exec(init.stdout)?.[1];
    expect(month).toMatch(/^\d{4}-\d{2}$/);
    expect(await filesUnder(project)).toEqual(
      [
        '.gitattributes',
        '.github/actions/postsync/README.md',
        '.github/actions/postsync/SHA256SUMS',
        '.github/actions/postsync/action.yml',
        '.github/actions/postsync/action/parse-worker.mjs',
        '.github/actions/postsync/action/postsync-code.mjs',
        '.github/actions/postsync/action/postsync-generated.mjs',
        '.github/actions/postsync/action/postsync.mjs',
        '.github/actions/postsync/action/rolldown-runtime.mjs',
        '.github/actions/postsync/action/third-party.mjs',
        '.github/actions/postsync/package.json',
        '.github/actions/postsync/schemas/fixture.schema.json',
        '.github/workflows/postsync-apply.yml', '.github/workflows/postsync-health.yml', '.github/workflows/postsync-plan.yml', '.gitignore', '.vscode/settings.json', 'media/welcome.png', `posts/${month}/welcome.md`, 'postsync.yaml'].sort(),
    );
    expect(init.stdout).toContain('  cd calendar\n  postsync plan');
    // Each file it wrote, and what the workflows run.
    expect(init.stdout).toContain('  + .github/actions/postsync/action/postsync.mjs\n');
    expect(init.stdout).toContain(
      'The workflows run the postsync action copied into .github/actions/postsync/ (nothing is downloaded when they run); to update it, run `postsync init --update-action` with the postsync version you want and commit the result.',
    );
    expect(await readFile(join(project, '.github/actions/postsync/action.yml'), 'utf8')).toBe(await readFile(join(REPO_ROOT, 'action.yml'), 'utf8'));
    for (const file of ['postsync.mjs', 'postsync-code.mjs', 'third-party.mjs']) expect(await readFile(join(project, '.github/actions/postsync/action', file))).toEqual(await readFile(join(REPO_ROOT, 'action', file)));

    const config = await readFile(join(project, 'postsync.yaml'), 'utf8');
    expect(config.split('\n')[0]).toBe('# yaml-language-server: $schema=node_modules/postsync/schemas/config.schema.json');
    for (const setting of ['# api:', '#   url: https://', '# content: posts', '# state: .postsync/state.json', 'timezone: ', 'accounts:']) expect(config).toContain(setting);
    expect((await loadConfig({ cwd: project, env: {} })).accounts).toHaveProperty('photo');
    expect(await readFile(join(project, '.gitignore'), 'utf8')).toContain('.postsync/local-api/\n.postsync/*.lock\n');
    expect(await readFile(join(project, '.gitattributes'), 'utf8')).toBe('# postsync: merge the state file entry by entry (`postsync state merge`, see its --help)\n.postsync/state.json merge=postsync-state\n');
    expect(init.stdout).toContain('  git config merge.postsync-state.driver "npx postsync state merge %O %A %B"\n');
    expect(JSON.parse(await readFile(join(project, '.vscode/settings.json'), 'utf8'))).toEqual({
      'yaml.schemas': {
        './node_modules/postsync/schemas/config.schema.json': ['postsync.yaml', 'postsync.yml'],
        './node_modules/postsync/schemas/post.schema.json': ['posts/**/*.md'],
      },
    });
    for (const [file, text] of Object.entries(WORKFLOW_FILES)) expect(await readFile(join(project, file), 'utf8')).toBe(text);

    let result = await runCli(['plan'], { cwd: project });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`+ create  ${month}/welcome`);
    expect(result.stdout).toContain('Plan: 1 to create, 0 to update, 0 to delete.');
    result = await runCli(['apply', '--yes'], { cwd: project });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Apply complete: 1 created, 0 updated, 0 deleted, 0 moved, 0 adopted; 1 media uploaded.');
    result = await runCli(['plan', '--detailed-exitcode'], { cwd: project });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('No changes.');
  }, 120_000);

  it('refuses to overwrite anything: lists the existing files, writes nothing, exits 1', async () => {
    const dir = await testdir({ 'postsync.yml': 'timezone: UTC\n', 'media/welcome.png': 'mine' });
    const result = await runCli(['init'], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('init would overwrite 2 existing files; nothing was written:\n  media/welcome.png\n  postsync.yml\n');
    expect(await filesUnder(dir)).toEqual(['media/welcome.png', 'postsync.yml']);
    expect(await readFile(join(dir, 'media/welcome.png'), 'utf8')).toBe('mine');
  });

  it('--update-action replaces the copy of the action and writes nothing else', async () => {
    const dir = await testdir({ '.github/actions/postsync/action.yml': 'name: an old postsync\n', '.github/actions/postsync/stale.txt': 'from an old version', 'postsync.yaml': 'timezone: UTC\n' });
    const result = await runCli(['init', '--update-action'], { cwd: dir });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    // Every file of the build is written.
    for (const file of ['parse-worker.mjs', 'postsync-code.mjs', 'postsync-generated.mjs', 'postsync.mjs', 'rolldown-runtime.mjs', 'third-party.mjs']) expect(result.stdout).toContain(`  ~ .github/actions/postsync/action/${file}\n`);
    expect(result.stdout).toContain('run `postsync init --update-action` with the postsync version you want');
    expect(await readFile(join(dir, '.github/actions/postsync/action.yml'), 'utf8')).toBe(await readFile(join(REPO_ROOT, 'action.yml'), 'utf8'));
    expect((await filesUnder(dir)).filter((file) => !file.startsWith('.github/actions/postsync/'))).toEqual(['postsync.yaml']);
    expect(await filesUnder(dir)).not.toContain('.github/actions/postsync/stale.txt');
  });

  it('adds only the missing .gitignore entries to an existing .gitignore', async () => {
    const dir = await testdir({ '.gitignore': 'node_modules/\n.postsync/local-api/' });
    const result = await runCli(['init'], { cwd: dir });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('~ .gitignore');
    expect(await readFile(join(dir, '.gitignore'), 'utf8')).toBe(
      'node_modules/\n.postsync/local-api/\n\n# postsync: the embedded local API\'s data, the state lock and journal, the state branch commit last pulled\n.postsync/*.lock\n.postsync/*.lock.takeover\n.postsync/*.journal\n.postsync/state-home.json\n',
    );
  });

  it('adds the merge driver line to an existing .gitattributes, once', async () => {
    const dir = await testdir({ '.gitattributes': '*.png binary' });
    expect((await runCli(['init'], { cwd: dir })).stdout).toContain('~ .gitattributes');
    const expected = '*.png binary\n\n# postsync: merge the state file entry by entry (`postsync state merge`, see its --help)\n.postsync/state.json merge=postsync-state\n';
    expect(await readFile(join(dir, '.gitattributes'), 'utf8')).toBe(expected);
  });
});

describe('schema references', () => {
  it('are relative paths inside a postsync checkout and the installed path elsewhere', async () => {
    expect(schemaReference(join(REPO_ROOT, 'examples'), 'config.schema.json')).toBe('../schemas/config.schema.json');
    expect(schemaReference(REPO_ROOT, 'post.schema.json')).toBe('./schemas/post.schema.json');
    const elsewhere = await testdir();
    expect(schemaReference(elsewhere, 'config.schema.json')).toBe('node_modules/postsync/schemas/config.schema.json');
    const installed = await testdir({ 'node_modules/postsync/schemas/config.schema.json': '{}' });
    expect(schemaReference(installed, 'config.schema.json', { postsyncRoot: join(installed, 'node_modules/postsync') })).toBe('node_modules/postsync/schemas/config.schema.json');
  });
});

describe('examples/workflows', () => {
  it('are the workflows init writes', async () => {
    for (const [file, text] of Object.entries(WORKFLOW_FILES)) {
      expect(await readFile(join(REPO_ROOT, 'examples/workflows', file.split('/').pop()!), 'utf8')).toBe(text);
    }
  });
});

