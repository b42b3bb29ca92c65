import { relative, resolve } from 'node:path';
import { annotation } from '../../src/actions/workflow-commands.js';
import { checkWorkflows } from '../../src/init/check-workflows.js';
import { APPLY_WORKFLOW_FILE } from '../../src/init/workflows.js';
import { joinTerminal, term, terminalPath, type Terminal } from '../../src/text/terminal.js';
import { out } from '../output.js';
import type { Command } from 'commander';
import { initProject, updateVendoredAction } from '../../src/init/init-project.js';
import { checkVendoredAction, VENDORED_ACTION_DIR } from '../../src/init/vendored-action.js';
import { APPLY_ENVIRONMENT } from '../../src/init/workflow-steps.js';
import { STATE_MERGE_GIT_CONFIG } from '../../src/init/templates.js';
import { globalOptions } from '../context.js';
import { writeWorkflowCommand } from '../workflow-output.js';
import { styleFor } from '../views/style.js';

/** What the workflows run, and how to move them to another version: said whenever init writes the action. */
const ACTION_SENTENCE = `The workflows run the postsync action copied into ${VENDORED_ACTION_DIR}/ (nothing is downloaded when they run); to update it, run \`postsync init --update-action\` with the postsync version you want and commit the result.`;

export interface InitFlags {
  updateAction: boolean;
  check: boolean;
  checkAction: boolean;
  example: boolean;
  defaultBranch?: string;
}

/** Writes a new project into --dir (default: the current folder). Exit 1, writing nothing, when a file exists. */
export async function runInit(command: Command, flags: InitFlags): Promise<number> {
  const options = globalOptions(command);
  const dir = resolve(options.dir ?? process.cwd());
  const style = styleFor(process.stdout, options);
  if (flags.check) return runChecks(dir);
  if (flags.checkAction) return runActionCheck(dir);
  if (flags.updateAction) {
    const updated = await updateVendoredAction({ dir });
    out.write(term`${joinTerminal([term`Replaced the postsync action in ${dir}:`, ...updated.written.map((file) => term`  ${style.green(term`~`)} ${file}`), term``, term`${ACTION_SENTENCE}`], '\n')}\n`);
    return 0;
  }
  const result = await initProject({ dir, now: new Date(), example: flags.example, ...(flags.defaultBranch === undefined ? {} : { defaultBranch: flags.defaultBranch }) });
  const lines = [term`Created a postsync project in ${dir}:`, ...result.written.map((file) => term`  ${style.green(term`+`)} ${file}`)];
  if (result.gitignore !== 'unchanged') lines.push(term`  ${style.green(term`${result.gitignore === 'created' ? '+' : '~'}`)} .gitignore`);
  if (result.gitattributes !== 'unchanged') lines.push(term`  ${style.green(term`${result.gitattributes === 'created' ? '+' : '~'}`)} .gitattributes`);
  const fromHere = relative(process.cwd(), dir);
  const cd = fromHere.startsWith('..') ? dir : fromHere;
  lines.push(
    term``,
    term`Next:`,
    ...(cd === '' ? [] : [term`  cd ${cd.includes(' ') ? JSON.stringify(cd) : cd}`]),
    term`  ${`${result.postsyncCommand} plan`.padEnd(24)} # what apply would do (on the embedded local API until you set api.url)`,
    term`  ${`${result.postsyncCommand} apply --yes`.padEnd(24)} # do it`,
    term``,
    term`For GitHub: set the repository secrets POSTSYNC_API_URL and POSTSYNC_API_READ_KEY (a key that only reads), and`,
    term`POSTSYNC_API_KEY as a secret of the environment ${APPLY_ENVIRONMENT}, which only the default branch may use`,
    term`(docs/github-actions.md, Secrets). The workflows in .github/workflows/ plan every pull request, apply every`,
    term`merge to ${result.defaultBranch.branch} (the default branch: ${result.defaultBranch.from}) and check health daily; \`postsync init --check\` tells`,
    term`whether they still agree with the repository.`,
    term`${ACTION_SENTENCE}`,
    term``,
    term`So that git merges the state file of two branches entry by entry (once per clone):`,
    term`  ${STATE_MERGE_GIT_CONFIG}`,
  );
  out.write(term`${joinTerminal(lines, '\n')}\n`);
  return 0;
}

/** `init --check-action`: whether the project's copy of the action is exactly this postsync's. Exit 1 when not. */
async function runActionCheck(dir: string): Promise<number> {
  const check = await checkVendoredAction({ dir });
  const differences = [...check.changed.map((file) => term`  changed  ${terminalPath(file)}`), ...check.missing.map((file) => term`  missing  ${terminalPath(file)}`), ...check.extra.map((file) => term`  extra    ${terminalPath(file)}`)];
  if (differences.length === 0) {
    out.write(term`${VENDORED_ACTION_DIR}/ is exactly postsync ${check.version}'s action (${check.files} files, byte for byte).\n`);
    return 0;
  }
  out.write(term`${joinTerminal([term`${VENDORED_ACTION_DIR}/ is not postsync ${check.version}'s action:`, ...differences, term``, term`Review what changed (git diff), then run \`postsync init --update-action\` to restore this version's copy.`], '\n')}\n`);
  return 1;
}

/** `init --check`: whether the apply workflow applies the default branch. Exit 1 when it does not (a warning annotation in Actions too). */
async function runChecks(dir: string): Promise<number> {
  const workflows = await checkWorkflows({ dir, env: process.env });
  const problems: Terminal[] = [];
  const lines: Terminal[] = [];
  if (workflows.file === null) problems.push(term`no ${APPLY_WORKFLOW_FILE} at the top of this repository: nothing applies merges (postsync init writes it).`);
  else {
    const file = terminalPath(relative(process.cwd(), workflows.file) || workflows.file);
    const applies = workflows.branches.length === 0 ? 'no branch' : workflows.branches.join(', ');
    if (workflows.defaultBranch === null) lines.push(term`${file} applies pushes to ${applies}; git cannot tell the default branch here (no origin/HEAD, no branch checked out).`);
    else if (workflows.ok) lines.push(term`${file} applies pushes to ${applies}, the default branch (${workflows.defaultBranch.from}).`);
    else {
      const branch = workflows.defaultBranch.branch;
      problems.push(term`${file} applies pushes to ${applies}, but the default branch is ${branch} (${workflows.defaultBranch.from}): merges to ${branch} are never applied. Write \`branches: [${branch}]\` under \`on: push:\` in it.`);
    }
  }
  for (const line of lines) out.write(term`${line}\n`);
  for (const problem of problems) {
    out.write(term`Problem: ${problem}\n`);
    if (process.env.GITHUB_ACTIONS === 'true') writeWorkflowCommand(annotation('warning', problem.toString(), { title: 'postsync init --check' }));
  }
  return problems.length === 0 ? 0 : 1;
}
