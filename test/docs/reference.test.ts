import { readFile } from 'node:fs/promises';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { registerCommands } from '../../cli/registry.js';
import { calendarAt } from '../../src/config/find-calendars.js';
import { WORKFLOW_FILES } from '../../src/init/workflows.js';
import configSchema from '../../schemas/config.schema.json' with { type: 'json' };
import postSchema from '../../schemas/post.schema.json' with { type: 'json' };
import { readDoc, REPO_ROOT } from './doc-files.js';

const readme = await readDoc('README.md');

/** The docs are the reference: these checks fail when the code grows something they do not describe. */
describe('README.md', () => {
  it('is short: at most 150 lines', () => {
    expect(readme.trimEnd().split('\n').length).toBeLessThanOrEqual(150);
  });

  it('starts with the set-up contract: npm ci, one command for the main job, npm test', () => {
    const setup = readme.slice(readme.indexOf('## Set up, run, test'), readme.indexOf('## Quickstart'));
    expect(setup).toMatch(/npm ci\s+# installs the dependencies and builds dist\//);
    expect(setup).toContain('npx postsync -C examples --local apply --yes');
    expect(setup).toMatch(/npm test\s+#/);
  });

  it('lists every command in its table, one line each', () => {
    const program = new Command('postsync');
    registerCommands(program);
    for (const command of program.commands) expect(readme, command.name()).toMatch(new RegExp(`^\\| \`postsync ${command.name()}[\` ]`, 'm'));
  });
});

describe('docs/', () => {
  it('describes every front-matter field and platform option in writing-posts.md', async () => {
    const page = await readDoc('docs/writing-posts.md');
    for (const field of Object.keys(postSchema.properties)) expect(page).toContain(`| \`${field}\` |`);
    for (const option of Object.keys(postSchema.$defs.options.properties)) expect(page).toContain(`\`${option}\``);
  });

  it('describes every postsync.yaml setting in configuration.md', async () => {
    const page = await readDoc('docs/configuration.md');
    for (const setting of Object.keys(configSchema.properties)) expect(page).toMatch(new RegExp(`\\| \`${setting}(\\.url)?\` \\|`));
  });

  it('describes every action input and output in github-actions.md', async () => {
    const page = await readDoc('docs/github-actions.md');
    const action = parse(await readFile(`${REPO_ROOT}action.yml`, 'utf8')) as { inputs: object; outputs: object };
    for (const input of Object.keys(action.inputs)) expect(page).toContain(`| \`${input}\` |`);
    for (const output of Object.keys(action.outputs)) expect(page).toContain(`\`${output}\``);
  });

  it('names the concurrency groups and the artifact as the workflows init writes them', async () => {
    const page = await readDoc('docs/github-actions.md');
    const workflows = Object.values(WORKFLOW_FILES).join('\n');
    const names = [...workflows.matchAll(/^\s+(?:group|name): (postsync-[a-z-]+)\$\{\{/gm)].map((match) => match[1]!);
    expect(names).toEqual(expect.arrayContaining(['postsync-plan-', 'postsync-apply-', 'postsync-health-']));
    for (const name of names) expect(page, name).toContain(`\`${name}`);
    for (const folder of ['.', 'clients/acme-co']) expect(page).toContain(`\`${calendarAt(folder).artifactName}\``);
  });
});
