/**
 * The three GitHub workflows `postsync init` writes to .github/workflows/ (examples/workflows/
 * holds the same files; a test keeps them identical). Each first finds the calendars to work on
 * (the folders with a postsync.yaml: one at the repository root, or one per client or brand),
 * then runs one job per calendar, each with its own concurrency group and its own secrets.
 * All use the postsync action of ACTION_REF.
 */

/** Where the postsync action is published; a team that hosts its own copy changes this line. */
export const ACTION_REF = 'postsync/postsync@v0';

/** The files whose change calls for a new plan, in any calendar folder (the defaults `init` writes). */
const CONTENT_PATHS = ['**/posts/**', '**/media/**', '**/postsync.yaml', '**/.postsync/state.json'];

const pathFilter = (paths: readonly string[]) => paths.map((path) => `      - "${path}"`).join('\n');

const checkout = (options: { ref?: string; fetchDepth?: number; comment?: string } = {}) => {
  const withLines = [
    ...(options.ref ? [...(options.comment ? options.comment.split('\n').map((line) => `          # ${line}`) : []), `          ref: ${options.ref}`] : []),
    ...(options.fetchDepth === undefined ? [] : [`          fetch-depth: ${options.fetchDepth}`]),
  ];
  return `      - name: Check out the content
        uses: actions/checkout@v4${withLines.length > 0 ? `\n        with:\n${withLines.join('\n')}` : ''}

      - name: Set up Node.js
        uses: actions/setup-node@v4
        with:
          node-version: 20
`;
};

const setupPostsync = `      - name: Set up postsync
        uses: ${ACTION_REF}
        with:
          command: setup
`;

/** The first job of each workflow: the calendars to work on, as a JSON list for the matrix. */
function calendarsJob(options: { title: string; fetchDepth?: number; find: string }): string {
  return `  calendars:
    name: ${options.title}
    runs-on: ubuntu-latest
    timeout-minutes: 5
    outputs:
      calendars: \${{ steps.find.outputs.calendars }}
    steps:
${checkout(options.fetchDepth === undefined ? {} : { fetchDepth: options.fetchDepth })}
${setupPostsync}
      - name: Find the calendars
        id: find
${options.find}`;
}

/** The matrix of the second job: one job per calendar, skipped when there is none. */
const matrix = `    needs: calendars
    if: needs.calendars.outputs.calendars != '[]'
    runs-on: ubuntu-latest
    strategy:
      fail-fast: false
      matrix:
        calendar: \${{ fromJSON(needs.calendars.outputs.calendars) }}`;

const calendarSecrets = `          api-url: \${{ secrets[matrix.calendar.apiUrlSecret] }}
          api-key: \${{ secrets[matrix.calendar.apiKeySecret] }}`;

const SECRETS_NOTE = `# Secrets, per calendar: POSTSYNC_API_URL and POSTSYNC_API_KEY for a calendar at the repository
# root; POSTSYNC_API_URL_<FOLDER> and POSTSYNC_API_KEY_<FOLDER> for one in a folder (clients/acme:
# POSTSYNC_API_KEY_CLIENTS_ACME). \`postsync calendars\` lists the names.`;

export const PLAN_WORKFLOW = `# Shows on every pull request what merging it would change on the Public Posting API, for each
# calendar (folder with a postsync.yaml) it touches: the plan and a calendar diff in the job
# summary, every invalid file as an inline annotation, the calendar page as an artifact, and one
# comment on the pull request with the calendar diff.
${SECRETS_NOTE}
# A key with accounts-read and posts-read is enough.
name: postsync plan

on:
  pull_request:
    paths:
${pathFilter(CONTENT_PATHS)}

permissions:
  contents: read
  pull-requests: write # only for the calendar comment (comment: true below)

jobs:
${calendarsJob({
  title: 'Calendars this pull request touches',
  // The merge commit and its first parent, the base branch: their difference is the pull request.
  fetchDepth: 2,
  find: `        run: |
          if changed=$(git diff --name-only HEAD^1 HEAD 2>/dev/null); then
            printf '%s\\n' "$changed" | postsync calendars --changed -
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
    concurrency:
      group: postsync-plan-\${{ github.event.pull_request.number }}-\${{ matrix.calendar.folder }}
      cancel-in-progress: true
    steps:
${checkout()}
      - name: Plan
        id: postsync
        uses: ${ACTION_REF}
        with:
          command: plan
          working-directory: \${{ matrix.calendar.folder }}
${calendarSecrets}

      - name: Calendar
        if: \${{ !cancelled() }}
        uses: ${ACTION_REF}
        with:
          command: calendar
          args: --out postsync-calendar
          comment: true
          working-directory: \${{ matrix.calendar.folder }}
${calendarSecrets}

      - name: Upload the calendar page
        if: \${{ !cancelled() }}
        uses: actions/upload-artifact@v4
        with:
          name: postsync-calendar-\${{ matrix.calendar.apiKeySecret }}
          path: \${{ matrix.calendar.folder }}/postsync-calendar/
          retention-days: 14
`;

/**
 * Commits the calendar's state file and pushes it, whatever happened meanwhile. The branch may
 * have moved (merges, other calendars' state commits): the commit is rebased onto the new head
 * and pushed again, with state files merged entry by entry by \`postsync state merge\`. Should
 * the state still conflict, the job plans and applies again from the new head with this run's
 * records carried over, so nothing it created is created twice. It fails only when that fails.
 */
const COMMIT_STATE = `        run: |
          if [ ! -f "$STATE_FILE" ]; then
            echo "No state file to commit."
            exit 0
          fi
          branch="$GITHUB_REF_NAME"
          message="postsync: record applied posts"
          if [ "$CALENDAR" != "." ]; then message="$message of $CALENDAR"; fi
          git config user.name "github-actions[bot]"
          git config user.email "41898282+github-actions[bot]@users.noreply.github.com"
          # Another run's state commit is merged entry by entry, not line by line (.gitattributes).
          git config merge.postsync-state.driver "postsync state merge %O %A %B"
          commit_state() {
            git add -- "$STATE_FILE"
            if git diff --cached --quiet -- "$STATE_FILE"; then return 1; fi
            git commit -q -m "$message [skip ci]" -- "$STATE_FILE"
          }
          if ! commit_state; then
            echo "The state file is unchanged."
            exit 0
          fi
          status=0
          for attempt in 1 2 3 4 5; do
            if git push -q origin "HEAD:$branch"; then
              echo "Pushed the state file to $branch."
              exit "$status"
            fi
            echo "$branch moved on while this job ran: catching up (attempt $attempt of 5)."
            git fetch -q origin "$branch"
            if git rebase -q FETCH_HEAD; then continue; fi
            git rebase --abort
            echo "::warning title=postsync::the state file conflicts with $branch; applying again from its new head"
            ours="$RUNNER_TEMP/postsync-state-ours.json"
            base="$RUNNER_TEMP/postsync-state-base.json"
            cp "$STATE_FILE" "$ours"
            git show "HEAD~1:./$STATE_FILE" > "$base" 2>/dev/null || : > "$base"
            git reset -q --hard FETCH_HEAD
            mkdir -p "$(dirname "$STATE_FILE")"
            if [ ! -f "$STATE_FILE" ]; then : > "$STATE_FILE"; fi
            postsync state merge "$base" "$STATE_FILE" "$ours"
            postsync apply --yes || status=1
            commit_state || true
          done
          echo "::error title=postsync::could not push the state file to $branch after 5 attempts"
          exit 1
`;

export const APPLY_WORKFLOW = `# Applies each calendar (folder with a postsync.yaml) that a push to main touched, then commits
# its state file (.postsync/state.json: which remote post belongs to which file) back to main.
${SECRETS_NOTE}
# Each key needs every permission its posts use.
name: postsync apply

on:
  push:
    branches: [main]
    paths:
${pathFilter(CONTENT_PATHS.filter((path) => !path.endsWith('state.json')))}
  workflow_dispatch:

permissions:
  contents: write

jobs:
${calendarsJob({
  title: 'Calendars this push touches',
  fetchDepth: 0,
  find: `        env:
          BEFORE: \${{ github.event.before }}
        run: |
          if [ -n "$BEFORE" ] && git cat-file -e "$BEFORE^{commit}" 2>/dev/null; then
            git diff --name-only "$BEFORE" "$GITHUB_SHA" | postsync calendars --changed -
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
    # One apply per calendar at a time, never cancelled halfway. A newer run's job waits here (GitHub
    # keeps the newest one waiting), so it starts after the previous one pushed its state.
    concurrency:
      group: postsync-apply-\${{ matrix.calendar.folder }}
      cancel-in-progress: false
    steps:
${checkout({ ref: '${{ github.ref_name }}', comment: 'The branch as it is now, not the commit that triggered this run: it has the state\nthe previous run pushed, and every merge since (a skipped run\'s too).' })}
      - name: Apply
        id: postsync
        uses: ${ACTION_REF}
        with:
          command: apply
          args: --yes
          working-directory: \${{ matrix.calendar.folder }}
${calendarSecrets}

      # Also after a failed or partial apply: the state records every post that was created.
      - name: Commit the state file
        if: always()
        working-directory: \${{ matrix.calendar.folder }}
        env:
          CALENDAR: \${{ matrix.calendar.folder }}
          STATE_FILE: .postsync/state.json
          POSTSYNC_API_URL: \${{ secrets[matrix.calendar.apiUrlSecret] }}
          POSTSYNC_API_KEY: \${{ secrets[matrix.calendar.apiKeySecret] }}
${COMMIT_STATE}`;

export const HEALTH_WORKFLOW = `# Checks every calendar (folder with a postsync.yaml) once a day: \`plan --detailed-exitcode\`
# (invalid files, merges not applied, drift, blocked changes) and \`status --problems\` (failed,
# partly published, drifted and blocked posts). While something is wrong it keeps one GitHub issue
# per calendar open (label postsync-health), each problem linked to its file and line, and closes
# it when all is well.
${SECRETS_NOTE}
# A key with accounts-read and posts-read is enough.
name: postsync health

on:
  schedule:
    - cron: "17 6 * * *"
  workflow_dispatch:

permissions:
  contents: read
  issues: write

jobs:
${calendarsJob({ title: 'Calendars to check', find: '        run: postsync calendars\n' })}
  health:
    name: postsync health (\${{ matrix.calendar.folder }})
${matrix}
    timeout-minutes: 15
    concurrency:
      group: postsync-health-\${{ matrix.calendar.folder }}
      cancel-in-progress: true
    steps:
${checkout()}
${setupPostsync}
      - name: Check and report
        working-directory: \${{ matrix.calendar.folder }}
        env:
          POSTSYNC_API_URL: \${{ secrets[matrix.calendar.apiUrlSecret] }}
          POSTSYNC_API_KEY: \${{ secrets[matrix.calendar.apiKeySecret] }}
          GITHUB_TOKEN: \${{ secrets.GITHUB_TOKEN }}
        run: |
          out="$RUNNER_TEMP/postsync-health"
          mkdir -p "$out"
          plan_exit=0
          postsync plan --detailed-exitcode --json > "$out/plan.json" 2> "$out/plan.log" || plan_exit=$?
          status_exit=0
          postsync status --problems --json > "$out/status.json" 2> "$out/status.log" || status_exit=$?
          postsync health-issue --plan "$out/plan.json" --plan-exit "$plan_exit" --status "$out/status.json" --status-exit "$status_exit" --log "$out/plan.log" --log "$out/status.log"
`;

/** Project-relative paths → contents of the workflows. */
export const WORKFLOW_FILES: Readonly<Record<string, string>> = {
  '.github/workflows/postsync-plan.yml': PLAN_WORKFLOW,
  '.github/workflows/postsync-apply.yml': APPLY_WORKFLOW,
  '.github/workflows/postsync-health.yml': HEALTH_WORKFLOW,
};
