/** GitHub's limit for what one step appends to the job summary; more is dropped whole. */
export const STEP_SUMMARY_LIMIT = 1024 * 1024;
/** GitHub's limit for a comment's body (in characters; bytes are at least as many). */
export const COMMENT_LIMIT = 65_536;
/** Room kept for what the runner or GitHub adds around our text. */
export const LIMIT_MARGIN = 1024;
/**
 * What `apply` adds to the summary after the plan (the outcome and its failures): the plan's
 * summary leaves this much of the step's limit for it.
 */
export const APPLY_OUTCOME_BUDGET = 64 * 1024;
/** The plan's part of a step's job summary. */
export const PLAN_SUMMARY_BUDGET = STEP_SUMMARY_LIMIT - LIMIT_MARGIN - APPLY_OUTCOME_BUDGET;
