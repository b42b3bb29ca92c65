/**
 * The three GitHub workflows `postsync init` writes to .github/workflows/ (examples/workflows/
 * holds the same files; a test keeps them identical). Each first finds the calendars to work on
 * (the folders with a postsync.yaml: one at the repository root, or one per client or brand),
 * then runs one job per calendar, each with its own secrets (apply: then one job that records
 * every calendar's state).
 * All run the postsync action `init` copied into the repository (ACTION_REF) and third-party
 * actions pinned by commit, and grant each job only the permissions it needs.
 */
import { APPLY_CONCURRENCY, HAND_ON_STATE, RECORD_JOB } from './state-commit.js';
import { ACTION_REF, APPLY_ENVIRONMENT, applyKeyCheck, branchFilter, calendarSecrets, calendarsJob, CHANGED_PATHS, checkout, matrix, PINNED_ACTIONS, readSecrets, readSecretsEnv, readState, SECRETS_NOTE, setupPostsync, WITH_TOKEN } from './workflow-steps.js';

/** The default branch the examples are written for; `init` writes the repository's own. */
export const EXAMPLE_DEFAULT_BRANCH = 'main';

/** Whether the plan job plans: false only for a pull request from a fork that got no secrets. */
const PLANNED = "steps.secrets.outputs.plan == 'true'";

/**
 * A pull request from a fork, or Dependabot's, gets no secrets: its plan job ends green with a
 * notice instead of failing on the missing key. A pull request from this repository without the
 * read key fails here, naming the secret. The key itself never reaches this step.
 */
const FORK_CHECK = `      - name: Check for the secrets
        id: secrets
        env:
          KEY_SET: \${{ secrets[matrix.calendar.readKeySecret] != '' }}
          FROM_FORK: \${{ github.event.pull_request.head.repo.full_name != github.repository }}
          FROM_DEPENDABOT: \${{ github.actor == 'dependabot[bot]' }}
          KEY_NAME: \${{ matrix.calendar.readKeySecret }}
          CALENDAR: \${{ matrix.calendar.folder }}
        run: |
          if [ "$KEY_SET" != "true" ] && [ "$FROM_FORK" = "true" ]; then
            echo "::notice title=postsync::nothing was planned for $CALENDAR: this pull request comes from a fork, and GitHub gives a fork's workflows no secrets ($KEY_NAME). Its files are checked once a maintainer pushes the branch to this repository, or when it is merged."
            echo "plan=false" >> "$GITHUB_OUTPUT"
          elif [ "$KEY_SET" != "true" ] && [ "$FROM_DEPENDABOT" = "true" ]; then
            echo "::notice title=postsync::nothing was planned for $CALENDAR: GitHub gives Dependabot's pull requests no repository secrets ($KEY_NAME)."
            echo "plan=false" >> "$GITHUB_OUTPUT"
          elif [ "$KEY_SET" != "true" ]; then
            echo "::error title=postsync::nothing was planned for $CALENDAR: the repository secret $KEY_NAME is not set. Plan and health checks read the API with a key of their own that can only read (accounts-read, posts-read): see the postsync docs, GitHub Actions > Secrets."
            exit 1
          else
            echo "plan=true" >> "$GITHUB_OUTPUT"
          fi
`;

export const PLAN_WORKFLOW = `# Shows on every pull request what merging it would change on the Public Posting API, for each
# calendar (folder with a postsync.yaml) it touches: the plan and a calendar diff in the job
# summary, every invalid file as an inline annotation, the calendar page as an artifact (named
# after the calendar's folder), and one comment on the pull request with the calendar diff. It reads
# the state where the calendar keeps it (the committed file, or its state branch) and never writes it.
${SECRETS_NOTE}
name: postsync plan

# Every pull request starts the first job, which is quick: \`postsync calendars --changed\` knows
# each calendar's folders (a custom content or snippets folder too), a path filter here would not.
on:
  pull_request:
    types: [opened, synchronize, reopened]

permissions: {}

jobs:
${calendarsJob({
  title: 'Calendars this pull request touches',
  // The merge commit and its first parent, the base branch: their difference is the pull request.
  fetchDepth: 2,
  find: `        run: |
          # A warning on every pull request while the apply workflow does not apply the default branch.
          postsync init --check || true
          changed="$RUNNER_TEMP/postsync-changed"
          if ${CHANGED_PATHS} HEAD^1 HEAD > "$changed" 2>/dev/null; then
            postsync calendars --changed "$changed"
          else
            echo "Cannot tell what the pull request changed: planning every calendar."
            postsync calendars
          fi
`,
})}
  plan:
    name: postsync plan (\${{ matrix.calendar.folder }})
${matrix}
    timeout-minutes: 15
    permissions:
      contents: read
      pull-requests: write # only for the calendar comment (comment: true below)
    concurrency:
      group: postsync-plan-\${{ github.event.pull_request.number }}-\${{ matrix.calendar.folder }}
      cancel-in-progress: true
    steps:
${FORK_CHECK}
${checkout({ if: PLANNED })}
${setupPostsync({ if: PLANNED })}
${readState({ if: PLANNED })}
      - name: Plan
        id: postsync
        if: ${PLANNED}
        uses: ${ACTION_REF}
        with:
          command: plan
          working-directory: \${{ matrix.calendar.folder }}
${readSecrets}

      - name: Calendar
        if: \${{ !cancelled() && ${PLANNED} }}
        uses: ${ACTION_REF}
        with:
          command: calendar
          args: --out postsync-calendar
          comment: true
          working-directory: \${{ matrix.calendar.folder }}
${readSecrets}

      - name: Upload the calendar page
        if: \${{ !cancelled() && ${PLANNED} }}
        uses: ${PINNED_ACTIONS.uploadArtifact}
        with:
          name: \${{ matrix.calendar.artifactName }}
          path: \${{ matrix.calendar.folder }}/postsync-calendar/
          retention-days: 14
`;

/** The run is on the repository's default branch: the only branch the apply workflow applies. */
const ON_DEFAULT_BRANCH = "github.ref == format('refs/heads/{0}', github.event.repository.default_branch)";

/** The apply workflow of a repository whose default branch is `defaultBranch` (read from git by `init`). */
export const applyWorkflow = (options: { defaultBranch: string }) => `# Applies each calendar (folder with a postsync.yaml) that a push to ${options.defaultBranch} touched, one job per
# calendar, all at once; each hands its state (.postsync/state.json: which remote post belongs to
# which file) on, and one job after them records every state in its home in one commit: committed
# back to ${options.defaultBranch}, or, with \`state: { home: branch }\` in its postsync.yaml, on a state branch of its
# own (postsync/state), for a ${options.defaultBranch} that branch protection keeps from the workflow's pushes. Each
# apply job also lists the posts with problems, as the daily health check does.
${SECRETS_NOTE}
# The write key needs every permission its posts use.
name: postsync apply

on:
  push:
    branches: [${branchFilter(options.defaultBranch)}]
    # Any change but a new state file alone: \`postsync calendars --changed\` picks the calendars.
    paths-ignore:
      - "**/.postsync/state.json"
  # By hand too, but only on the default branch: a branch that is not merged is never applied.
  workflow_dispatch:

permissions: {}

${APPLY_CONCURRENCY}
jobs:
  refuse:
    name: Apply only the default branch
    if: \${{ !(${ON_DEFAULT_BRANCH}) }}
    runs-on: ubuntu-latest
    timeout-minutes: 1
    permissions: {}
    steps:
      - name: Refuse this branch
        env:
          DEFAULT_BRANCH: \${{ github.event.repository.default_branch }}
        run: |
          echo "::error title=postsync::apply runs only on the default branch ($DEFAULT_BRANCH), not on $GITHUB_REF: nothing was applied. Merge the branch, or run the workflow on $DEFAULT_BRANCH."
          exit 1

${calendarsJob({
  title: 'Calendars this push touches',
  if: ON_DEFAULT_BRANCH,
  // The pushed commit alone (depth 1), and the one before it fetched alone below: two trees, no history.
  find: `        env:
          BEFORE: \${{ github.event.before }}
          GITHUB_TOKEN: \${{ github.token }}
        run: |
${WITH_TOKEN}          if [ -n "$BEFORE" ] && [ "$BEFORE" != "0000000000000000000000000000000000000000" ]; then
            with_token git fetch -q --no-tags --depth=1 origin "$BEFORE" || true
          fi
          if [ -n "$BEFORE" ] && git cat-file -e "$BEFORE^{commit}" 2>/dev/null; then
            ${CHANGED_PATHS} "$BEFORE" "$GITHUB_SHA" | postsync calendars --changed -
          else
            echo "No earlier commit to compare with (a new branch, or a run by hand): applying every calendar."
            postsync calendars
          fi
`,
})}
  apply:
    name: postsync apply (\${{ matrix.calendar.folder }})
${matrix}
    timeout-minutes: 30
    permissions:
      contents: read # the record job alone writes the states
    # The write key is a secret of this environment alone, which only the default branch may use.
    environment: ${APPLY_ENVIRONMENT}
    steps:
${applyKeyCheck}
${checkout({ ref: '${{ github.ref_name }}', comment: 'The branch as it is now, not the commit that triggered this run: it has the state\nthe previous run pushed, and every merge since (a skipped run\'s too).' })}
${setupPostsync()}
${readState()}
      - name: Apply
        id: postsync
        uses: ${ACTION_REF}
        with:
          command: apply
          args: --yes
          working-directory: \${{ matrix.calendar.folder }}
${calendarSecrets}

${HAND_ON_STATE}
      # The health check's post check after every apply too, so that a scheduled health workflow
      # GitHub disabled (60 days without activity in a public repository) misses nothing. It runs
      # after the state is handed on (the record job records it whatever this job ends with); a post
      # that failed to publish, was partly published or is blocked fails the job, and the job summary
      # lists each with why (drifted posts are listed only).
      - name: Check for problems
        if: \${{ always() && steps.postsync.outcome != 'skipped' }}
        working-directory: \${{ matrix.calendar.folder }}
        env:
          POSTSYNC_API_URL: \${{ secrets[matrix.calendar.apiUrlSecret] }}
          POSTSYNC_API_KEY: \${{ secrets[matrix.calendar.apiKeySecret] }}
        run: postsync status --problems --exit-code

${RECORD_JOB}`;

export const HEALTH_WORKFLOW = `# Checks every calendar (folder with a postsync.yaml) once a day: \`plan --detailed-exitcode\`
# (invalid files, merges not applied, drift, blocked changes) and \`status --problems\` (failed,
# partly published, drifted and blocked posts). While something is wrong it keeps one GitHub issue
# per calendar open (label postsync-health), each problem linked to its file and line, and closes
# it when all is well.
${SECRETS_NOTE}
name: postsync health

on:
  schedule:
    - cron: "17 6 * * *"
  workflow_dispatch:

permissions: {}

jobs:
${calendarsJob({ title: 'Calendars to check', find: '        run: postsync calendars\n' })}
  health:
    name: postsync health (\${{ matrix.calendar.folder }})
${matrix}
    timeout-minutes: 15
    permissions:
      contents: read
      issues: write # only for the health issue (the Report step)
    concurrency:
      group: postsync-health-\${{ matrix.calendar.folder }}
      cancel-in-progress: true
    steps:
${checkout()}
${setupPostsync()}
${readState()}
      # The API key for the checks, the GitHub token for the issue: no step holds both.
      - name: Check
        id: check
        working-directory: \${{ matrix.calendar.folder }}
        env:
${readSecretsEnv}
        run: |
          out="$RUNNER_TEMP/postsync-health"
          mkdir -p "$out"
          plan_exit=0
          postsync plan --detailed-exitcode --json > "$out/plan.json" 2> "$out/plan.log" || plan_exit=$?
          status_exit=0
          postsync status --problems --json > "$out/status.json" 2> "$out/status.log" || status_exit=$?
          echo "plan-exit=$plan_exit" >> "$GITHUB_OUTPUT"
          echo "status-exit=$status_exit" >> "$GITHUB_OUTPUT"

      - name: Report
        working-directory: \${{ matrix.calendar.folder }}
        env:
          GITHUB_TOKEN: \${{ secrets.GITHUB_TOKEN }}
          PLAN_EXIT: \${{ steps.check.outputs.plan-exit }}
          STATUS_EXIT: \${{ steps.check.outputs.status-exit }}
        run: |
          out="$RUNNER_TEMP/postsync-health"
          postsync health-issue --plan "$out/plan.json" --plan-exit "$PLAN_EXIT" --status "$out/status.json" --status-exit "$STATUS_EXIT" --log "$out/plan.log" --log "$out/status.log"
`;

/** The apply workflow of a repository on `main` (examples/workflows holds it). */
export const APPLY_WORKFLOW = applyWorkflow({ defaultBranch: EXAMPLE_DEFAULT_BRANCH });

/** The apply workflow's path: `init --check` reads its branch filter. */
export const APPLY_WORKFLOW_FILE = '.github/workflows/postsync-apply.yml';

/** Project-relative paths → contents of the workflows, for a repository whose default branch is `defaultBranch`. */
export function workflowFiles(options: { defaultBranch: string }): Readonly<Record<string, string>> {
  return {
    '.github/workflows/postsync-plan.yml': PLAN_WORKFLOW,
    [APPLY_WORKFLOW_FILE]: applyWorkflow(options),
    '.github/workflows/postsync-health.yml': HEALTH_WORKFLOW,
  };
}

/** The workflows of a repository on `main`, as examples/workflows holds them. */
export const WORKFLOW_FILES = workflowFiles({ defaultBranch: EXAMPLE_DEFAULT_BRANCH });
