/**
 * The small part of the GitHub Actions expression language our workflows and action.yml use:
 * `${{ context.path }}` for the contexts inputs, secrets, github, steps, env and matrix-free
 * property paths, and the status functions in `if:`. Anything else throws, so a workflow that
 * starts using more fails this harness loudly instead of being run wrongly.
 */
export type Contexts = {
  inputs?: Record<string, string>;
  secrets?: Record<string, string>;
  github?: Record<string, unknown>;
  env?: Record<string, string>;
  steps?: Record<string, { outputs: Record<string, string>; outcome: 'success' | 'failure' | 'skipped' }>;
};

const PATH = /^([A-Za-z_][\w-]*)((?:\.[A-Za-z_][\w-]*)*)$/;

export function evaluate(expression: string, contexts: Contexts): string {
  const match = PATH.exec(expression.trim());
  if (!match) throw new Error(`expression not supported by the workflow harness: ${expression}`);
  const [, root, rest] = match as unknown as [string, string, string];
  if (!['inputs', 'secrets', 'github', 'env', 'steps'].includes(root)) throw new Error(`context not supported by the workflow harness: ${root}`);
  let value: unknown = contexts[root as keyof Contexts] ?? {};
  for (const part of rest.split('.').filter(Boolean)) {
    value = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[part] : undefined;
  }
  // As on GitHub: a missing property (e.g. an unset secret) is the empty string.
  if (value === undefined || value === null) return '';
  if (typeof value === 'object') throw new Error(`expression ${expression} is an object, not a value`);
  return String(value);
}

/** Replaces every `${{ … }}` in a string. */
export function interpolate(text: string, contexts: Contexts): string {
  return text.replace(/\$\{\{(.*?)\}\}/g, (_all, expression: string) => evaluate(expression, contexts));
}

/** Whether a step runs, given its `if:` and whether an earlier step of the job failed. */
export function shouldRun(condition: unknown, options: { failed: boolean }): boolean {
  if (condition === undefined) return !options.failed;
  const text = String(condition).trim().replace(/^\$\{\{(.*)\}\}$/, '$1').trim();
  switch (text) {
    case 'always()':
      return true;
    case 'success()':
      return !options.failed;
    case 'failure()':
      return options.failed;
    case '!cancelled()':
      return true;
    default:
      throw new Error(`if: condition not supported by the workflow harness: ${text}`);
  }
}
