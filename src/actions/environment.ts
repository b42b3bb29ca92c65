/** The GitHub Actions runner's files and folders, read from its environment variables. */
export interface GitHubActionsEnvironment {
  /** `GITHUB_STEP_SUMMARY`: Markdown appended here shows on the run's summary page. */
  summaryFile: string | null;
  /** `GITHUB_OUTPUT`: `name<<delimiter` blocks appended here become the step's outputs. */
  outputFile: string | null;
  /** `GITHUB_WORKSPACE`: the repository root; annotation paths are relative to it. */
  workspace: string;
}

export type Environment = Readonly<Record<string, string | undefined>>;

/**
 * The runner's environment when running inside GitHub Actions (`GITHUB_ACTIONS=true`), else null.
 * Without `GITHUB_WORKSPACE`, paths are taken relative to `fallbackWorkspace` (the project root).
 */
export function gitHubActionsEnvironment(env: Environment, options: { fallbackWorkspace: string }): GitHubActionsEnvironment | null {
  if (env.GITHUB_ACTIONS !== 'true') return null;
  const nonEmpty = (value: string | undefined) => (value === undefined || value === '' ? null : value);
  return {
    summaryFile: nonEmpty(env.GITHUB_STEP_SUMMARY),
    outputFile: nonEmpty(env.GITHUB_OUTPUT),
    workspace: nonEmpty(env.GITHUB_WORKSPACE) ?? options.fallbackWorkspace,
  };
}
