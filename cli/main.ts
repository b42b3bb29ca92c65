#!/usr/bin/env node
import { createRequire } from 'node:module';
import { Command } from 'commander';
import { registerCommands } from './registry.js';
import { reportFatal } from './fatal.js';
import { guardWorkflowCommands } from './workflow-output.js';

const require = createRequire(import.meta.url);
const { version } = require('../../package.json') as { version: string };

const program = new Command('postsync')
  .description('Sync a content calendar of Markdown posts with the Public Posting API, GitOps style.')
  .version(version, '-v, --version')
  .showHelpAfterError('(run `postsync --help` for usage)')
  .configureHelp({ sortSubcommands: false });

guardWorkflowCommands(process.env);
registerCommands(program);

program.parseAsync(process.argv).catch(async (error: unknown) => {
  process.exitCode = await reportFatal(error, { projectDir: program.opts<{ dir?: string }>().dir });
});
