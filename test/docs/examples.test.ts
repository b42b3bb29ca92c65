import { chmod, cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { CLI, cliEnv, runCli } from '../helpers/cli.js';
import { testdir } from '../helpers/testdir.js';
import { attribute, docFiles, fencedBlocks, readDoc, REPO_ROOT, type FencedBlock } from './doc-files.js';

/**
 * Every example in README.md and docs/ runs: post files (```markdown post), parts of postsync.yaml
 * (```yaml postsync.yaml), other files (```markdown file=PATH) and commands (```sh run) are put into
 * a project that `postsync init` wrote, with the media of examples/, so the aliases and the syntax
 * the docs show are the ones init writes. Each page is one project: its postsync.yaml parts merged
 * into init's, its files and posts beside init's, `postsync validate` clean, then its commands run.
 * A post labelled `fails=CODE` is validated alone and must fail with that code.
 */

const EXAMPLE_MEDIA = join(REPO_ROOT, 'examples/media');

interface PageExamples {
  page: string;
  posts: FencedBlock[];
  failing: FencedBlock[];
  configs: FencedBlock[];
  files: FencedBlock[];
  commands: FencedBlock[];
  emptyCommands: FencedBlock[];
}

function examplesOf(page: string, markdown: string): PageExamples {
  const blocks = fencedBlocks(markdown);
  const is = (language: string, marker: string) => (block: FencedBlock) => block.info[0] === language && block.info.some((word) => word === marker || word.startsWith(`${marker}=`));
  const posts = blocks.filter(is('markdown', 'post'));
  return {
    page,
    posts: posts.filter((block) => attribute(block, 'fails') === undefined),
    failing: posts.filter((block) => attribute(block, 'fails') !== undefined),
    configs: blocks.filter(is('yaml', 'postsync.yaml')),
    files: blocks.filter((block) => block.info[0] === 'markdown' && !block.info.includes('post') && attribute(block, 'file') !== undefined),
    commands: blocks.filter((block) => block.info[0] === 'sh' && block.info.includes('run')),
    emptyCommands: blocks.filter((block) => block.info[0] === 'sh' && block.info.includes('run=empty')),
  };
}

function merged(base: unknown, part: unknown): unknown {
  if (!isMapping(base) || !isMapping(part)) return part;
  const result: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(part)) result[key] = merged(base[key], value);
  return result;
}

function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A `postsync` on PATH that runs the built CLI on the embedded local API (`--local`, whatever postsync.yaml says). */
async function postsyncOnPath(): Promise<string> {
  const bin = await testdir();
  await writeFile(join(bin, 'postsync'), `#!/bin/sh\nexec "${process.execPath}" "${CLI}" --local "$@"\n`);
  await chmod(join(bin, 'postsync'), 0o755);
  return bin;
}

function where(page: string, block: FencedBlock): string {
  return `${page}:${block.line}`;
}

/** An init'd project with the page's postsync.yaml parts and files, and the given posts. */
async function projectOf(examples: PageExamples, posts: FencedBlock[]): Promise<string> {
  const dir = await testdir();
  const init = await runCli(['init'], { cwd: dir });
  expect(init.code, init.stderr).toBe(0);
  await cp(EXAMPLE_MEDIA, join(dir, 'media'), { recursive: true });
  const configFile = join(dir, 'postsync.yaml');
  let config = parse(await readFile(configFile, 'utf8')) as unknown;
  for (const block of examples.configs) config = merged(config, parse(block.text));
  await writeFile(configFile, stringify(config));
  const write = async (path: string, text: string) => {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  };
  for (const block of examples.files) await write(attribute(block, 'file')!, block.text);
  for (const block of posts) await write(attribute(block, 'file') ?? `posts/docs/${examples.page.replace(/[/.]/g, '-')}-${block.line}.md`, block.text);
  return dir;
}

function runShell(script: string, options: { cwd: string; bin: string }): Promise<{ code: number | null; output: string }> {
  const env = cliEnv({ PATH: `${options.bin}:${process.env.PATH}` });
  const child = spawn('bash', ['-e', '-c', script.replace(/\bnpx postsync\b/g, 'postsync')], { cwd: options.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

const pages = await Promise.all((await docFiles()).map(async (page) => examplesOf(page, await readDoc(page))));
const withExamples = pages.filter((examples) => examples.posts.length + examples.failing.length + examples.configs.length + examples.commands.length + examples.emptyCommands.length > 0);

describe('the examples of README.md and docs/', () => {
  it('are found: posts, postsync.yaml parts, failing posts and commands', () => {
    const count = (pick: (examples: PageExamples) => FencedBlock[]) => pages.reduce((sum, examples) => sum + pick(examples).length, 0);
    expect(count((examples) => examples.posts)).toBeGreaterThanOrEqual(5);
    expect(count((examples) => examples.configs)).toBeGreaterThanOrEqual(4);
    expect(count((examples) => examples.failing)).toBeGreaterThanOrEqual(1);
    expect(count((examples) => examples.commands) + count((examples) => examples.emptyCommands)).toBeGreaterThanOrEqual(3);
  });

  it('use the aliases init writes, never the example calendar\'s', async () => {
    for (const examples of pages) {
      for (const block of [...examples.posts, ...examples.failing, ...examples.configs, ...examples.commands]) {
        if (attribute(block, 'fails') === 'unknown-account') continue;
        expect(block.text, where(examples.page, block)).not.toMatch(/brand-(photo|video|short)/);
      }
    }
  });

  describe.each(withExamples)('$page', (examples) => {
    it('validates, and its commands run, in an init\'d project', { timeout: 180_000 }, async () => {
      const dir = await projectOf(examples, examples.posts);
      const bin = await postsyncOnPath();
      const validate = await runShell('postsync validate', { cwd: dir, bin });
      expect(validate.output).not.toMatch(/ error /);
      expect(validate.code, validate.output).toBe(0);
      for (const block of examples.commands) {
        const run = await runShell(block.text, { cwd: dir, bin });
        expect(run.code, `${where(examples.page, block)}\n${run.output}`).toBe(0);
      }
      for (const block of examples.emptyCommands) {
        const run = await runShell(block.text, { cwd: await testdir(), bin });
        expect(run.code, `${where(examples.page, block)}\n${run.output}`).toBe(0);
      }
    });

    it.each(examples.failing.map((block) => [where(examples.page, block), block] as const))('%s fails as labelled', { timeout: 120_000 }, async (_where, block) => {
      const dir = await projectOf(examples, [block]);
      const validate = await runShell('postsync validate', { cwd: dir, bin: await postsyncOnPath() });
      expect(validate.code, validate.output).toBe(1);
      expect(validate.output).toContain(`[${attribute(block, 'fails')}]`);
    });
  });
});
