import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { registerCommands } from '../../cli/registry.js';

/** The program as cli/main.ts makes it, its help 80 columns wide as in a pipe. */
function program(): Command {
  const root = new Command('postsync')
    .description('Sync a content calendar of Markdown posts with the Public Posting API, GitOps style.')
    .version('0.0.0', '-v, --version')
    .configureHelp({ sortSubcommands: false, helpWidth: 80 });
  registerCommands(root);
  return root;
}

/** Every command with its path (`state merge`), the program itself first. */
function everyCommand(command: Command, path: string[] = []): [string, Command][] {
  return [[path.join(' ') || 'postsync', command], ...command.commands.flatMap((sub) => everyCommand(sub, [...path, sub.name()]))];
}

/** What `postsync --help` and every `postsync <command> --help` print, pinned byte for byte. */
describe('--help', () => {
  it('prints for every command what it printed when the commands were declared one by one', async () => {
    let text = '';
    for (const [name, command] of everyCommand(program())) {
      text += `=== ${name}\n`;
      // outputHelp, unlike helpInformation, prints the text added after the options too.
      command.configureOutput({ writeOut: (part) => (text += part) }).outputHelp();
    }
    await expect(text).toMatchFileSnapshot('__snapshots__/help.txt');
  });
});
