/**
 * The apply workflow's last step: commits the calendar's state file and pushes it, whatever
 * happened meanwhile. The branch may have moved (merges, other calendars' state commits): the
 * commit is rebased onto the new head and pushed again, with state files merged entry by entry by
 * `postsync state merge`. Should the state still conflict, the job plans and applies again from
 * the new head with this run's records carried over, so nothing it created is created twice. It
 * fails only when that fails.
 *
 * The checkout keeps no token, so this step gets the job's token in GITHUB_TOKEN and hands it to
 * `git fetch` and `git push` alone, as a header in that one command's environment (never in
 * .git/config, never on a command line); postsync and every other command run without it.
 */
export const COMMIT_STATE = `        run: |
          if [ ! -f "$STATE_FILE" ]; then
            echo "No state file to commit."
            exit 0
          fi
          auth="$(printf 'x-access-token:%s' "$GITHUB_TOKEN" | base64 | tr -d '\\n')"
          echo "::add-mask::$auth"
          unset GITHUB_TOKEN
          with_token() {
            GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=http.extraheader GIT_CONFIG_VALUE_0="AUTHORIZATION: basic $auth" git "$@"
          }
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
            if with_token push -q origin "HEAD:$branch"; then
              echo "Pushed the state file to $branch."
              exit "$status"
            fi
            echo "$branch moved on while this job ran: catching up (attempt $attempt of 5)."
            with_token fetch -q origin "$branch"
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
