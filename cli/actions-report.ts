import { PLAN_SUMMARY_BUDGET } from '../src/actions/limits.js';
import type { Plan } from '../src/plan/types.js';
import { writeWorkflowCommand } from './workflow-output.js';

/**
 * The plan's annotations, step outputs and job summary when running in GitHub Actions
 * (`GITHUB_ACTIONS=true`). Elsewhere nothing is loaded: the Actions and Markdown modules cost
 * every other run start-up time for nothing.
 */
export async function reportPlanToGitHubActions(plan: Plan, context: { root: string; label: string; timezone: string; pruneNote?: string | null }): Promise<void> {
  if (process.env.GITHUB_ACTIONS !== 'true') return;
  const [{ reportToGitHubActions }, { renderPlanMarkdown }] = await Promise.all([import('../src/actions/index.js'), import('./views/plan-markdown.js')]);
  await reportToGitHubActions(
    { root: context.root, diagnostics: plan.diagnostics, plan, summary: () => renderPlanMarkdown(plan, { label: context.label, timezone: context.timezone, pruneNote: context.pruneNote ?? null, maxBytes: PLAN_SUMMARY_BUDGET }) },
    { env: process.env, annotate: writeWorkflowCommand },
  );
}
