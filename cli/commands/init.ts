import { relative, resolve } from 'node:path';
import type { Command } from 'commander';
import { initProject, updateVendoredAction } from '../../src/init/init-project.js';
import { VENDORED_ACTION_DIR } from '../../src/init/vendored-action.js';
import { STATE_MERGE_GIT_CONFIG } from '../../src/init/templates.js';
import { globalOptions } from '../context.js';
import { styleFor } from '../views/style.js';

/** What the workflows run, and how to move them to another version: said whenever init writes the action. */
const ACTION_SENTENCE = `The workflows run the postsync action copied into ${VENDORED_ACTION_DIR}/ (nothing is downloaded when they run); to update it, run \`postsync init --update-action\` with the postsync version you want and commit the result.`;

/** Writes a new project into --dir (default: the current folder). Exit 1, writing nothing, when a file exists. */
export async function runInit(command: Command, flags: { updateAction: boolean }): Promise<number> {
  const options = globalOptions(command);
  const dir = resolve(options.dir ?? process.cwd());
  const style = styleFor(process.stdout, options);
  if (flags.updateAction) {
    const updated = await updateVendoredAction({ dir });
    process.stdout.write(`${[`Replaced the postsync action in ${dir}:`, ...updated.written.map((file) => `  ${style.green('~')} ${file}`), '', ACTION_SENTENCE].join('\n')}\n`);
    return 0;
  }
  const result = await initProject({ dir, now: new Date() });
  const lines = [`Created a postsync project in ${dir}:`, ...result.written.map((file) => `  ${style.green('+')} ${file}`)];
  if (result.gitignore !== 'unchanged') lines.push(`  ${style.green(result.gitignore === 'created' ? '+' : '~')} .gitignore`);
  if (result.gitattributes !== 'unchanged') lines.push(`  ${style.green(result.gitattributes === 'created' ? '+' : '~')} .gitattributes`);
  const fromHere = relative(process.cwd(), dir);
  const cd = fromHere.startsWith('..') ? dir : fromHere;
  lines.push(
    '',
    'Next:',
    ...(cd === '' ? [] : [`  cd ${cd.includes(' ') ? JSON.stringify(cd) : cd}`]),
    `  ${`${result.postsyncCommand} plan`.padEnd(24)} # what apply would do (on the embedded local API until you set api.url)`,
    `  ${`${result.postsyncCommand} apply --yes`.padEnd(24)} # do it`,
    '',
    'For GitHub: set the repository secrets POSTSYNC_API_URL and POSTSYNC_API_KEY; the workflows in',
    '.github/workflows/ plan every pull request, apply every merge to main and check health daily.',
    ACTION_SENTENCE,
    '',
    'So that git merges the state file of two branches entry by entry (once per clone):',
    `  ${STATE_MERGE_GIT_CONFIG}`,
  );
  process.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}
