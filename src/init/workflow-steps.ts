/**
 * The building blocks the workflows of workflows.ts share: the actions they use, each pinned so
 * that a workflow only ever runs code the repository itself names, and the jobs' common parts.
 */

/**
 * The postsync action `init` copies into the repository (vendored-action.ts): the workflows run
 * that copy, so the code that sees the API keys is whatever the repository's own history holds.
 */
export const ACTION_REF = './.github/actions/postsync';

/**
 * Third-party actions, pinned by full commit SHA (a tag can be moved to other code; a commit
 * cannot), with the release it is as a comment for readers and update bots.
 */
export const PINNED_ACTIONS = {
  checkout: 'actions/checkout@3d3c42e5aac5ba805825da76410c181273ba90b1 # v7.0.1',
  setupNode: 'actions/setup-node@820762786026740c76f36085b0efc47a31fe5020 # v7.0.0',
  uploadArtifact: 'actions/upload-artifact@bbbca2ddaa5d8feaa63e36b76fdaad77386f024f # v7.0.0',
  downloadArtifact: 'actions/download-artifact@3e5f45b2cfb9172054b4087a40e8e0b5a5461e7c # v8.0.1',
} as const;

/** The Node.js major the workflows run postsync on: a release line that still gets security fixes. */
const NODE_VERSION = 24;

/**
 * The paths two commits differ in, as \`postsync calendars --changed\` reads them: NUL-separated
 * and unquoted, so that a file named in any script reaches the calendar that holds it.
 */
export const CHANGED_PATHS = 'git diff --name-only -z';

/**
 * A branch name as an entry of a workflow's `branches:` filter, matching that branch alone: as it
 * is when it holds only letters, digits and \`. _ / -\`, else quoted with the filter's pattern
 * characters (\`* ? + [ ] !\`) escaped by a backslash.
 */
export function branchFilter(branch: string): string {
  if (/^[A-Za-z0-9._/-]+$/.test(branch)) return branch;
  return `'${branch.replace(/[*?+[\]!\\]/g, (char) => `\\${char}`).replace(/'/g, "''")}'`;
}

/** `if:` lines of a step, indented for a job's steps; none when `condition` is undefined. */
const ifLine = (condition: string | undefined) => (condition === undefined ? '' : `\n        if: ${condition}`);

/**
 * Checks out the repository and sets up Node.js. The token never stays in .git/config
 * (persist-credentials: false): only the step that pushes the state file is given it, for that push.
 */
export const checkout = (options: { ref?: string; fetchDepth?: number; comment?: string; if?: string } = {}) => {
  const withLines = [
    ...(options.ref ? [...(options.comment ? options.comment.split('\n').map((line) => `          # ${line}`) : []), `          ref: ${options.ref}`] : []),
    ...(options.fetchDepth === undefined ? [] : [`          fetch-depth: ${options.fetchDepth}`]),
    '          persist-credentials: false',
  ];
  return `      - name: Check out the content${ifLine(options.if)}
        uses: ${PINNED_ACTIONS.checkout}
        with:
${withLines.join('\n')}

      - name: Set up Node.js${ifLine(options.if)}
        uses: ${PINNED_ACTIONS.setupNode}
        with:
          node-version: ${NODE_VERSION}
`;
};

export const setupPostsync = (options: { if?: string } = {}) => `      - name: Set up postsync${ifLine(options.if)}
        uses: ${ACTION_REF}
        with:
          command: setup
`;

/**
 * The bash lines that give the job's token (GITHUB_TOKEN in the step's env) to the commands run
 * through `with_token` alone, as a header in that one command's environment: never in
 * .git/config, never on a command line, masked in the log, and unset for everything else.
 */
export const WITH_TOKEN = `          auth="$(printf 'x-access-token:%s' "$GITHUB_TOKEN" | base64 | tr -d '\\n')"
          echo "::add-mask::$auth"
          unset GITHUB_TOKEN
          with_token() {
            GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=http.extraheader GIT_CONFIG_VALUE_0="AUTHORIZATION: basic $auth" "$@"
          }
`;

/**
 * Puts the calendar's state in place before it is planned or applied: with \`state: { home:
 * branch }\` the state branch is fetched (that ref alone, depth 1) and its file copied into the
 * checkout; with the committed file nothing is fetched. Its outputs tell the state commit where
 * the state lives (home, branch, file). It holds the token, never the API key.
 */
export const readState = (options: { if?: string } = {}) => `      - name: Read the state
        id: state${ifLine(options.if)}
        working-directory: \${{ matrix.calendar.folder }}
        env:
          GITHUB_TOKEN: \${{ github.token }}
        run: |
${WITH_TOKEN}          with_token postsync state pull
`;

/** The first job of each workflow: the calendars to work on, as a JSON list for the matrix. */
export function calendarsJob(options: { title: string; fetchDepth?: number; find: string; if?: string }): string {
  return `  calendars:
    name: ${options.title}${options.if === undefined ? '' : `\n    if: ${options.if}`}
    runs-on: ubuntu-latest
    timeout-minutes: 5
    permissions:
      contents: read
    outputs:
      calendars: \${{ steps.find.outputs.calendars }}
    steps:
${checkout(options.fetchDepth === undefined ? {} : { fetchDepth: options.fetchDepth })}
${setupPostsync()}
      - name: Find the calendars
        id: find
${options.find}`;
}

/** The matrix of the second job: one job per calendar, skipped when there is none. */
export const matrix = `    needs: calendars
    if: needs.calendars.outputs.calendars != '[]'
    runs-on: ubuntu-latest
    strategy:
      fail-fast: false
      matrix:
        calendar: \${{ fromJSON(needs.calendars.outputs.calendars) }}`;

/**
 * The GitHub environment the apply job runs in, and the only place its write keys are kept
 * (`secrets[matrix.calendar.apiKeySecret]`): with a deployment rule that lets only the default
 * branch use it, no pull request's run (the plan job, a workflow a pull request edits) can read
 * them. The plan and health jobs read a key of their own that can only read
 * (`secrets[matrix.calendar.readKeySecret]`, a repository secret).
 */
export const APPLY_ENVIRONMENT = 'postsync-apply';

/** The `with:` lines of a postsync action step: the API and the key that writes (the apply job alone). */
export const calendarSecrets = `          api-url: \${{ secrets[matrix.calendar.apiUrlSecret] }}
          api-key: \${{ secrets[matrix.calendar.apiKeySecret] }}`;

/** The same with the key that only reads (plan and calendar steps). */
export const readSecrets = `          api-url: \${{ secrets[matrix.calendar.apiUrlSecret] }}
          api-key: \${{ secrets[matrix.calendar.readKeySecret] }}`;

/** The `env:` lines of a run step that reads the remote with the read-only key (health checks). */
export const readSecretsEnv = `          POSTSYNC_API_URL: \${{ secrets[matrix.calendar.apiUrlSecret] }}
          POSTSYNC_API_KEY: \${{ secrets[matrix.calendar.readKeySecret] }}`;

/**
 * The apply job's first step: a clear error, naming the secret and where it belongs, when its
 * environment holds no write key for the calendar (GitHub makes an environment a job names on
 * first use, with no secrets and no rules).
 */
export const applyKeyCheck = `      - name: Check for the key
        env:
          KEY_SET: \${{ secrets[matrix.calendar.apiKeySecret] != '' }}
          KEY_NAME: \${{ matrix.calendar.apiKeySecret }}
          CALENDAR: \${{ matrix.calendar.folder }}
        run: |
          if [ "$KEY_SET" != "true" ]; then
            echo "::error title=postsync::nothing was applied for $CALENDAR: the secret $KEY_NAME is not set. The apply job takes its key from the environment ${APPLY_ENVIRONMENT} alone (Settings > Environments > ${APPLY_ENVIRONMENT} > Environment secrets), which only the default branch may use: see the postsync docs, GitHub Actions > Secrets."
            exit 1
          fi
`;

export const SECRETS_NOTE = `# Secrets, per calendar: POSTSYNC_API_URL and POSTSYNC_API_READ_KEY (a key that can only read) as
# repository secrets, and POSTSYNC_API_KEY (the key that writes) as a secret of the environment
# ${APPLY_ENVIRONMENT} alone, whose deployment rule allows the default branch only; for a calendar in
# a folder the same names end in _<FOLDER> (clients/acme: POSTSYNC_API_KEY_CLIENTS_ACME).
# \`postsync calendars\` lists the names.
# Every job runs the postsync action copied into .github/actions/postsync/ (\`postsync init
# --update-action\` replaces it) and third-party actions pinned by commit; each job gets only the
# permissions it lists.`;
