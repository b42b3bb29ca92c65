import { WITH_TOKEN } from './workflow-steps.js';

/**
 * The apply workflow's last step: records the calendar's state in its home, whatever happened
 * meanwhile. It runs after a failed or partial apply too: the state holds every post created.
 *
 * State home `branch` (state: { home: branch }): `postsync state push --merge` commits the state
 * file alone to the state branch and pushes only that branch; should the branch have moved (other
 * runs, other calendars), their records are merged in entry by entry by the same merge as the
 * merge driver, and the push is tried again from the new tip. The default branch is never pushed,
 * so its protection rules stay as they are. postsync runs there without the API key.
 *
 * State home `file`: the state file is committed to the default branch. The branch may have moved
 * (merges, other calendars' state commits): the commit is rebased onto the new head and pushed
 * again, with state files merged entry by entry by `postsync state merge`. Should the state still
 * conflict, the job plans and applies again from the new head with this run's records carried
 * over, so nothing it created is created twice. A branch that refuses the push outright (a
 * protected branch) fails at once, naming the branch home as the way out.
 *
 * The checkout keeps no token: this step gets the job's token in GITHUB_TOKEN and hands it to the
 * commands that push and fetch alone (WITH_TOKEN).
 */
export const COMMIT_STATE = `        run: |
          if [ ! -f "$STATE_FILE" ]; then
            echo "No state file to commit."
            exit 0
          fi
${WITH_TOKEN}          branch="$GITHUB_REF_NAME"
          message="postsync: record applied posts"
          if [ "$CALENDAR" != "." ]; then message="$message of $CALENDAR"; fi
          git config user.name "github-actions[bot]"
          git config user.email "41898282+github-actions[bot]@users.noreply.github.com"
          if [ "$STATE_HOME" = "branch" ]; then
            with_token env -u POSTSYNC_API_KEY -u POSTSYNC_API_URL postsync state push --merge --message "$message [skip ci]"
            exit 0
          fi
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
            if pushed="$(with_token git push -q origin "HEAD:$branch" 2>&1)"; then
              echo "Pushed the state file to $branch."
              exit "$status"
            fi
            printf '%s\\n' "$pushed"
            if printf '%s' "$pushed" | grep -qiE 'remote rejected|protected branch'; then
              echo "::error title=postsync::$branch refuses the state commit (a protected branch?), so what this run applied is not recorded there. Keep the state on a branch of its own: run postsync state move-home --to branch and merge the change of postsync.yaml (state: { home: branch }); apply then pushes only to that branch."
              exit 1
            fi
            echo "$branch moved on while this job ran: catching up (attempt $attempt of 5)."
            with_token git fetch -q origin "$branch"
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
