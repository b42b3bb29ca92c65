import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { text as readAll } from 'node:stream/consumers';
import type { Command } from 'commander';
import { appendStepOutputs, gitHubActionsEnvironment } from '../../src/actions/index.js';
import { assertDistinctSecrets, findCalendars } from '../../src/config/find-calendars.js';
import { changedCalendars } from '../../src/pipeline/changed-calendars.js';
import { InputError } from '../../src/errors.js';
import { APPLY_ENVIRONMENT } from '../../src/init/workflow-steps.js';
import { globalOptions } from '../context.js';
import { parseGitPathList } from '../../src/text/git-path-list.js';
import { joinTerminal, term, terminalJson, terminalPath } from '../../src/text/terminal.js';
import { out } from '../output.js';

export interface CalendarsFlags {
  changed?: string;
  json?: boolean;
}

async function changedPaths(file: string): Promise<string[]> {
  const text =
    file === '-'
      ? await readAll(process.stdin)
      : await readFile(file, 'utf8').catch(() => {
          throw new InputError(`cannot read the list of changed files ${file}`);
        });
  return parseGitPathList(text);
}

/**
 * `postsync calendars`: the folders below this one that hold a postsync.yaml, with the names of
 * their secrets; `--changed FILE` keeps those a change touched. In GitHub Actions the list is
 * also the step output `calendars` (a JSON array for a job matrix).
 */
export async function runCalendars(flags: CalendarsFlags, command: Command): Promise<number> {
  const root = resolve(globalOptions(command).dir ?? process.cwd());
  const all = await findCalendars(root);
  assertDistinctSecrets(all);
  const calendars = flags.changed === undefined ? all : await changedCalendars(root, all, await changedPaths(flags.changed));
  if (flags.json) out.write(terminalJson({ formatVersion: 1, command: 'calendars', calendars }));
  else if (calendars.length === 0) out.write(flags.changed === undefined ? term`No postsync.yaml below this folder.\n` : term`The change touched no calendar.\n`);
  else out.write(term`${joinTerminal(calendars.map((calendar) => term`${terminalPath(calendar.folder)}  (secrets ${calendar.apiUrlSecret}, ${calendar.readKeySecret}; ${calendar.apiKeySecret} in the environment ${APPLY_ENVIRONMENT})`), '\n')}\n`);
  const actions = gitHubActionsEnvironment(process.env, { fallbackWorkspace: root });
  await appendStepOutputs(actions, { calendars: JSON.stringify(calendars), count: calendars.length });
  return 0;
}
