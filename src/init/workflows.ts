/**
 * The two GitHub workflows `postsync init` writes to .github/workflows/ (examples/workflows/ holds
 * the same files; a test keeps them identical). Both use the postsync action of ACTION_REF.
 */

/** Where the postsync action is published; a team that hosts its own copy changes this line. */
export const ACTION_REF = 'postsync/postsync@v0';

/** The folders and files whose change calls for a new plan (the defaults `init` writes). */
const CONTENT_PATHS = ['posts/**', 'media/**', 'postsync.yaml', '.postsync/state.json'];

const setupSteps = `      - name: Check out the content
        uses: actions/checkout@v4

      - name: Set up Node.js
        uses: actions/setup-node@v4
        with:
          node-version: 20
`;

export const PLAN_WORKFLOW = `# Shows on every pull request what merging it would change on the Public Posting API:
# the plan and a calendar diff in the job summary, every invalid file as an inline annotation,
# the calendar page as an artifact, and one comment on the pull request with the calendar diff.
# Secrets: POSTSYNC_API_URL and POSTSYNC_API_KEY (a key with accounts-read and posts-read is enough).
name: postsync plan

on:
  pull_request:
    paths:
${CONTENT_PATHS.map((path) => `      - "${path}"`).join('\n')}

permissions:
  contents: read
  pull-requests: write # only for the calendar comment (comment: true below)

concurrency:
  group: postsync-plan-\${{ github.event.pull_request.number }}
  cancel-in-progress: true

jobs:
  plan:
    name: postsync plan
    runs-on: ubuntu-latest
    timeout-minutes: 15
    steps:
${setupSteps}
      - name: Plan
        id: postsync
        uses: ${ACTION_REF}
        with:
          command: plan
          api-url: \${{ secrets.POSTSYNC_API_URL }}
          api-key: \${{ secrets.POSTSYNC_API_KEY }}

      - name: Calendar
        if: \${{ !cancelled() }}
        uses: ${ACTION_REF}
        with:
          command: calendar
          args: --out postsync-calendar
          comment: true
          api-url: \${{ secrets.POSTSYNC_API_URL }}
          api-key: \${{ secrets.POSTSYNC_API_KEY }}

      - name: Upload the calendar page
        if: \${{ !cancelled() }}
        uses: actions/upload-artifact@v4
        with:
          name: postsync-calendar
          path: postsync-calendar/
          retention-days: 14
`;

export const APPLY_WORKFLOW = `# Applies the content calendar when it lands on main, then commits the state file
# (.postsync/state.json: which remote post belongs to which file) back to the branch.
# Secrets: POSTSYNC_API_URL and POSTSYNC_API_KEY (a key with every permission the posts need).
name: postsync apply

on:
  push:
    branches: [main]
    paths:
${CONTENT_PATHS.filter((path) => path !== '.postsync/state.json').map((path) => `      - "${path}"`).join('\n')}
  workflow_dispatch:

permissions:
  contents: write

# One apply at a time, and never cancelled halfway: each run starts from the state the last one committed.
concurrency:
  group: postsync-apply
  cancel-in-progress: false

jobs:
  apply:
    name: postsync apply
    runs-on: ubuntu-latest
    timeout-minutes: 30
    steps:
${setupSteps}
      - name: Apply
        id: postsync
        uses: ${ACTION_REF}
        with:
          command: apply
          args: --yes
          api-url: \${{ secrets.POSTSYNC_API_URL }}
          api-key: \${{ secrets.POSTSYNC_API_KEY }}

      # Also after a failed or partial apply: the state records every post that was created.
      - name: Commit the state file
        if: always()
        env:
          STATE_FILE: .postsync/state.json
        run: |
          if [ ! -f "$STATE_FILE" ]; then
            echo "No state file to commit."
            exit 0
          fi
          git add -- "$STATE_FILE"
          if git diff --cached --quiet -- "$STATE_FILE"; then
            echo "The state file is unchanged."
            exit 0
          fi
          git config user.name "github-actions[bot]"
          git config user.email "41898282+github-actions[bot]@users.noreply.github.com"
          git commit -m "postsync: record applied posts [skip ci]" -- "$STATE_FILE"
          git pull --rebase origin "$GITHUB_REF_NAME"
          git push origin "HEAD:$GITHUB_REF_NAME"
`;

/** Project-relative paths → contents of the workflows. */
export const WORKFLOW_FILES: Readonly<Record<string, string>> = {
  '.github/workflows/postsync-plan.yml': PLAN_WORKFLOW,
  '.github/workflows/postsync-apply.yml': APPLY_WORKFLOW,
};
