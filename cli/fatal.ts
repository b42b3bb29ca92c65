import { resolve } from 'node:path';
import { InvalidConfigError } from '../src/config/invalid-config-error.js';
import { PostsyncError } from '../src/errors.js';
import { term, terminalMessage } from '../src/text/terminal.js';
import { err } from './output.js';
import { writeWorkflowCommand } from './workflow-output.js';

/**
 * The one place errors become output and an exit code. Typed errors print their message and
 * hint; anything else is a bug and prints its stack only with POSTSYNC_DEBUG=1.
 * `projectDir` (the `--dir` flag, if given) places config annotations in GitHub Actions.
 */
export async function reportFatal(error: unknown, options: { projectDir?: string } = {}): Promise<number> {
  if (error instanceof PostsyncError) {
    err.write(term`Error: ${terminalMessage(error.message)}\n`);
    if (error.hint) err.write(term`  ${terminalMessage(error.hint)}\n`);
    if (error instanceof InvalidConfigError) await annotateConfig(error, resolve(options.projectDir ?? process.cwd()));
    return error.exitCode;
  }
  const message = error instanceof Error ? error.message : String(error);
  err.write(term`Error: ${terminalMessage(message)}\n`);
  if (process.env.POSTSYNC_DEBUG === '1' && error instanceof Error && error.stack) {
    err.write(term`${terminalMessage(error.stack)}\n`);
  }
  return 1;
}

/** In GitHub Actions, problems in postsync.yaml show inline on the pull request like post problems do. */
async function annotateConfig(error: InvalidConfigError, root: string): Promise<void> {
  // Loaded only on this failure path, so start-up stays lean.
  const { gitHubActionsEnvironment, diagnosticAnnotation } = await import('../src/actions/index.js');
  const actions = gitHubActionsEnvironment(process.env, { fallbackWorkspace: root });
  if (!actions) return;
  for (const diagnostic of error.diagnostics) writeWorkflowCommand(diagnosticAnnotation(diagnostic, { root, workspace: actions.workspace }));
}
