// `npm run docs:commands`: writes docs/commands.md from the CLI's commander definitions, so the
// reference and `--help` cannot drift (test/docs/commands-page.test.ts fails while it is stale).
import './register-ts.mjs';
import { writeFile } from 'node:fs/promises';
import { Command } from 'commander';
import { commandsPage } from './commands-page.mjs';

const { registerCommands } = await import('../cli/registry.ts');
const program = new Command('postsync');
registerCommands(program);
const target = new URL('../docs/commands.md', import.meta.url);
await writeFile(target, commandsPage(program));
console.log(`wrote ${target.pathname}`);
