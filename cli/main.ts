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

const projectDir = () => program.opts<{ dir?: string }>().dir;

// The last resort: an error nothing awaited (a rejected promise no one handled, an exception
// thrown from a callback) still ends the run as one clean error, never a raw stack and error
// object; the stack shows only with POSTSYNC_DEBUG=1, as for any error. Nothing may go on after it.
const lastResort = (error: unknown): void => {
  reportFatal(error, { projectDir: projectDir() }).then(
    (code) => process.exit(code),
    () => process.exit(1),
  );
};
process.on('unhandledRejection', lastResort);
process.on('uncaughtException', lastResort);

program.parseAsync(process.argv).catch(async (error: unknown) => {
  process.exitCode = await reportFatal(error, { projectDir: projectDir() });
});
