import type { Diagnostic } from '../diagnostics.js';
import type { ConfigFile } from './config-file.js';
import { isRecord } from './section-context.js';
import type { StateHome } from './types.js';

export const DEFAULT_STATE_PATH = '.postsync/state.json';
export const DEFAULT_STATE_BRANCH = 'postsync/state';

/** `state:` as written: a path (the state file, committed on the default branch) or `{ file, home, branch }`. */
export interface StateSetting {
  /** The state file, relative to the project root, as written. */
  file: string;
  home: StateHome;
}

/**
 * A branch name git accepts and a shell step reads as one word: letters, digits and `._/-`, no
 * part starting with `.` or `-`, no `..`, no `.lock` part, no trailing `/` or `.`. Narrower than
 * git's own rules, so the name is safe in every place the workflows put it.
 */
const BRANCH_NAME = /^(?!.*\.\.)(?!.*\/\/)(?!.*\.lock(\/|$))[A-Za-z0-9_][A-Za-z0-9._-]*(\/[A-Za-z0-9_][A-Za-z0-9._-]*)*$/;

export function isStateBranchName(name: string): boolean {
  return BRANCH_NAME.test(name) && !name.endsWith('.');
}

/**
 * Reads `state:`. The schema checked the types; this adds what it cannot say: a branch name git
 * and the workflows accept, and `branch` only with `home: branch` (elsewhere it would be ignored
 * silently while the state stays on the default branch).
 */
export function readStateSetting(configFile: ConfigFile, diagnostics: Diagnostic[]): StateSetting {
  const value = configFile.data.state as unknown;
  if (typeof value === 'string') return { file: value, home: { kind: 'file' } };
  if (!isRecord(value)) return { file: DEFAULT_STATE_PATH, home: { kind: 'file' } };
  const file = typeof value.file === 'string' ? value.file : DEFAULT_STATE_PATH;
  const at = (key: string) => ({ file: configFile.file ?? undefined, ...configFile.locate(['state', key]) });
  if (value.home !== 'branch') {
    if (value.branch !== undefined) {
      diagnostics.push({
        severity: 'error',
        code: 'state-branch-without-home',
        message: '`state.branch` is set but `state.home` is not `branch`: the state would stay on the default branch',
        ...at('branch'),
        expected: '`home: branch` next to `branch:`, or no `branch:`',
        hint: 'Add `home: branch` to keep the state on that branch (see docs/state-home.md), or remove `branch:`.',
      });
    }
    return { file, home: { kind: 'file' } };
  }
  const branch = typeof value.branch === 'string' ? value.branch : DEFAULT_STATE_BRANCH;
  if (!isStateBranchName(branch)) {
    diagnostics.push({
      severity: 'error',
      code: 'invalid-state-branch',
      message: `\`state.branch\` is not a branch name postsync can use`,
      ...at('branch'),
      expected: 'a branch name of letters, digits and `._/-`, such as `postsync/state`',
      found: `\`${branch}\``,
      hint: 'No part may start with `.` or `-`; no `..`, `//` or `.lock`.',
    });
  }
  return { file, home: { kind: 'branch', branch } };
}
