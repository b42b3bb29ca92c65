import type { PostProblem } from '../../src/health/post-problems.js';
import { inlineCode, joinMarkdown, markdownMessage, md, type Markdown } from '../../src/text/markdown.js';

/** What makes a post's problem a failure (`status --problems --exit-code`): it did not reach, or cannot reach, an account. Drift is a person's edit, not a failure. */
export const FAILED_PROBLEMS: ReadonlySet<PostProblem['kind']> = new Set(['failed', 'partially-published', 'blocked']);

/** A managed post with its problems, as `status --problems` reports it. */
export interface ProblemPost {
  key: string;
  file: string;
  problems?: readonly PostProblem[];
}

/**
 * The job summary of `status --problems` in GitHub Actions: a table with a row per problem, naming
 * the post's file and key, what went wrong and why (the remote's words, escaped); failures first.
 */
export function problemsSummaryMarkdown(posts: readonly ProblemPost[], options: { title: string }): Markdown {
  const rows = posts.flatMap((post) => (post.problems ?? []).map((problem) => ({ post, problem, failed: FAILED_PROBLEMS.has(problem.kind) })));
  if (rows.length === 0) return md`### ${options.title}\n\nNo problems: no managed post is drifted, failed, partly published or blocked.\n`;
  const failed = new Set(rows.filter((row) => row.failed).map((row) => row.post.key)).size;
  const ordered = [...rows.filter((row) => row.failed), ...rows.filter((row) => !row.failed)];
  const head = failed > 0 ? md`**❌ ${failed} managed post${failed === 1 ? '' : 's'} failed to publish or cannot be published.**` : md`**⚠️ ${posts.length} managed post${posts.length === 1 ? '' : 's'} changed on the remote since the last apply.**`;
  return joinMarkdown([
    md`### ${options.title}`,
    md``,
    head,
    md``,
    md`| | file | post | problem | why |`,
    md`| --- | --- | --- | --- | --- |`,
    ...ordered.map(({ post, problem, failed: isFailure }) => md`| ${isFailure ? '❌' : '⚠️'} | ${inlineCode(post.file, { table: true })} | ${inlineCode(post.key, { table: true })} | ${problem.kind} | ${markdownMessage(problem.message)} |`),
    md``,
  ], '\n');
}
