import { readFile } from 'node:fs/promises';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { registerCommands } from '../../cli/registry.js';
// @ts-expect-error: a plain ES module of scripts/, without type declarations
import { commandsPage } from '../../scripts/commands-page.mjs';

const PAGE = new URL('../../docs/commands.md', import.meta.url);

/** docs/commands.md is made from the commands' own definitions, so help and reference cannot drift. */
describe('docs/commands.md', () => {
  it('is what `npm run docs:commands` makes from cli/registry.ts today', async () => {
    const program = new Command('postsync');
    registerCommands(program);
    const committed = await readFile(PAGE, 'utf8');
    expect(committed, 'docs/commands.md is stale: run `npm run docs:commands` and commit docs/commands.md').toBe(commandsPage(program));
  });

  it('lists every command, argument and option', async () => {
    const program = new Command('postsync');
    registerCommands(program);
    const page = commandsPage(program) as string;
    const leaves = program.commands.flatMap((command) => (command.commands.length > 0 ? command.commands.map((sub) => [`${command.name()} ${sub.name()}`, sub] as const) : [[command.name(), command] as const]));
    for (const [name, command] of leaves) {
      expect(page).toContain(`## \`postsync ${name}\``);
      for (const option of command.options) expect(page).toContain(`\`${option.flags}\``);
      for (const argument of command.registeredArguments) expect(page).toContain(argument.name());
    }
  });
});
