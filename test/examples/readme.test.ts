import { readFile } from 'node:fs/promises';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { registerCommands } from '../../cli/registry.js';
import configSchema from '../../schemas/config.schema.json' with { type: 'json' };
import postSchema from '../../schemas/post.schema.json' with { type: 'json' };
import { ErrorCodes } from '../../src/api/error-codes.js';

const REPO_ROOT = new URL('../..', import.meta.url).pathname;
const readme = await readFile(`${REPO_ROOT}README.md`, 'utf8');

/** The README is the reference: these checks fail when the code grows something it does not describe. */
describe('README.md', () => {
  it('starts with the set-up contract: npm ci, one command for the main job, npm test', () => {
    const setup = readme.slice(readme.indexOf('## Set up, run, test'), readme.indexOf('## Quickstart'));
    expect(setup).toMatch(/npm ci\s+# installs the dependencies and builds dist\//);
    expect(setup).toContain('npx postsync -C examples --local apply --yes');
    expect(setup).toMatch(/npm test\s+#/);
  });

  it('documents every command and every flag', () => {
    const program = new Command('postsync');
    registerCommands(program);
    for (const command of program.commands) {
      expect(readme, `section for ${command.name()}`).toContain(`### \`postsync ${command.name()}`);
      for (const option of command.options) expect(readme, `${command.name()} ${option.long}`).toContain(option.long!);
    }
    for (const option of program.options) expect(readme).toContain(option.long!);
  });

  it('has a troubleshooting entry for every error code the API can return', () => {
    const troubleshooting = readme.slice(readme.indexOf('## Troubleshooting'));
    for (const code of Object.values(ErrorCodes)) expect(troubleshooting, code).toContain(`\`${code}\``);
  });

  it('describes every front-matter field, postsync.yaml setting, action input and output', async () => {
    for (const field of Object.keys(postSchema.properties)) expect(readme).toContain(`| \`${field}\` |`);
    for (const option of Object.keys(postSchema.$defs.options.properties)) expect(readme).toContain(`\`${option}\``);
    for (const setting of Object.keys(configSchema.properties)) expect(readme).toMatch(new RegExp(`\\| \`${setting}(\\.url)?\` \\|`));
    const action = parse(await readFile(`${REPO_ROOT}action.yml`, 'utf8')) as { inputs: object; outputs: object };
    for (const input of Object.keys(action.inputs)) expect(readme).toContain(`| \`${input}\` |`);
    for (const output of Object.keys(action.outputs)) expect(readme).toContain(`\`${output}\``);
  });
});
