import { checkout, PINNED_ACTIONS, setupPostsync, WITH_TOKEN } from './workflow-steps.js';

/**
 * How the apply workflow records the states: fan-out, fan-in. Each calendar's job applies and
 * hands its state on as an artifact (HAND_ON_STATE); one job after all of them (RECORD_JOB)
 * commits every state in one commit per branch and pushes once. Recording alone is what may
 * write to the repository: the jobs that hold API keys only read it.
 *
 * The runs of the workflow take turns (APPLY_CONCURRENCY): a run's calendars start from the
 * states the previous run recorded, so a calendar is never applied from a state that lacks the
 * posts an earlier apply created.
 */

/** The folder of the hand-off in each apply job, and of every hand-off in the recording job. */
const HANDOFF_DIR = '${{ runner.temp }}/postsync-state';
const HANDOFFS_DIR = '${{ runner.temp }}/postsync-states';

/**
 * The workflow's concurrency: one run at a time, in the order the pushes came. `queue: max` keeps
 * up to 100 runs waiting instead of cancelling all but the newest: each run applies the calendars
 * its own push touched, so a cancelled run would leave its calendars unapplied.
 */
export const APPLY_CONCURRENCY = `# One run at a time, in the order the pushes came: each starts from the states the previous one
# recorded. Up to 100 runs wait their turn (queue: max); none is cancelled, none is cut short.
concurrency:
  group: postsync-apply-\${{ github.ref }}
  cancel-in-progress: false
  queue: max
`;

/**
 * The last steps of each calendar's apply job: its state, also after a failed or partial apply
 * (the state holds every post created), handed on to the recording job. Not when the state could
 * not be read: nothing was applied, and a stale file must not be recorded.
 */
export const HAND_ON_STATE = `      # Also after a failed or partial apply: the state records every post that was created.
      # Not when the state could not be read: nothing was applied, and a stale file must not be recorded.
      - name: Hand on the state
        if: \${{ always() && steps.state.outcome == 'success' }}
        working-directory: \${{ matrix.calendar.folder }}
        env:
          HANDOFF: ${HANDOFF_DIR}
        run: postsync state handoff --out "$HANDOFF"

      - name: Upload the state
        if: \${{ always() && steps.state.outcome == 'success' }}
        uses: ${PINNED_ACTIONS.uploadArtifact}
        with:
          name: \${{ matrix.calendar.stateArtifactName }}
          path: ${HANDOFF_DIR}/
          if-no-files-found: ignore
          retention-days: 1
`;

/**
 * The fan-in job: after every apply job, also when some failed or the run was cancelled (their
 * partial states are recorded too), every hand-off is recorded in its home by
 * \`postsync state record\`: one commit per branch (the state branch, or the default branch for
 * the file home), each state merged entry by entry into what the branch holds, pushed once; a
 * push another writer got in before is fetched, merged and tried again (backoff and jitter, a
 * time bound). A branch that refuses the push outright (a protected default branch) fails with
 * the branch home named as the way out. The checkout keeps no token: this step hands the job's
 * token to the fetches and pushes alone (WITH_TOKEN), and postsync runs without the API key.
 */
export const RECORD_JOB = `  record:
    name: Record the states
    needs: [calendars, apply]
    if: \${{ always() && needs.calendars.result == 'success' && needs.calendars.outputs.calendars != '[]' }}
    runs-on: ubuntu-latest
    timeout-minutes: 15
    permissions:
      contents: write # only for pushing the states (the Record step)
    steps:
${checkout({ ref: '${{ github.ref_name }}' })}
${setupPostsync()}
      - name: Download the states
        uses: ${PINNED_ACTIONS.downloadArtifact}
        with:
          pattern: postsync-state*
          path: ${HANDOFFS_DIR}

      - name: Record the states
        env:
          HANDOFFS: ${HANDOFFS_DIR}
          GITHUB_TOKEN: \${{ github.token }}
        run: |
${WITH_TOKEN}          git config user.name "github-actions[bot]"
          git config user.email "41898282+github-actions[bot]@users.noreply.github.com"
          with_token postsync state record "$HANDOFFS" --message "postsync: record applied posts [skip ci]"
`;
