import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'yaml';
import { readRunEvent } from '../github/run-event.js';
import { defaultBranch, workTreeTop } from '../state/home-git.js';
import { APPLY_WORKFLOW_FILE } from './workflows.js';

/** What `init --check` found about the workflows of the repository holding a project. */
export interface WorkflowCheck {
  /** The apply workflow checked (absolute), or null when the repository has none. */
  file: string | null;
  /** The branches its push trigger applies. */
  branches: string[];
  /** The repository's default branch and where that was read, or null when nothing tells. */
  defaultBranch: { branch: string; from: string } | null;
  /** True when a push to the default branch starts the apply workflow. */
  ok: boolean;
}

/**
 * Whether the apply workflow (at the top of the git work tree holding `dir`: GitHub reads
 * workflows there alone) applies the repository's default branch. The default branch is the one
 * GitHub names for this run inside Actions (`event.repository.default_branch` of
 * GITHUB_EVENT_PATH), else what git knows (`defaultBranch`).
 */
export async function checkWorkflows(options: { dir: string; env: Readonly<Record<string, string | undefined>> }): Promise<WorkflowCheck> {
  const top = await workTreeTop({ cwd: options.dir, remote: 'origin' }).catch(() => options.dir);
  const file = join(top, APPLY_WORKFLOW_FILE);
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });
  const branch = (await eventDefaultBranch(options.env)) ?? (await defaultBranch({ cwd: top, remote: 'origin' }).catch(() => null));
  if (text === null) return { file: null, branches: [], defaultBranch: branch, ok: false };
  const branches = pushBranches(parse(text) as unknown);
  return { file, branches, defaultBranch: branch, ok: branch === null || branches.includes(branch.branch) };
}

/** `on.push.branches` of a workflow, as written; none when it has no such list. */
function pushBranches(workflow: unknown): string[] {
  const on = (workflow as { on?: { push?: { branches?: unknown } } } | null)?.on;
  const branches = typeof on === 'object' && on !== null ? on.push?.branches : undefined;
  return Array.isArray(branches) ? branches.filter((entry): entry is string => typeof entry === 'string') : [];
}

/** The default branch GitHub names in the event of this Actions run, if any. */
async function eventDefaultBranch(env: Readonly<Record<string, string | undefined>>): Promise<{ branch: string; from: string } | null> {
  if (env.GITHUB_ACTIONS !== 'true') return null;
  const event = await readRunEvent(env);
  const branch = event?.repository?.default_branch;
  return typeof branch === 'string' && branch !== '' ? { branch, from: "GitHub's repository settings" } : null;
}
