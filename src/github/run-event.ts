import { readFile } from 'node:fs/promises';

/**
 * The payload of the event that started this Actions run, as far as postsync reads it: each field
 * stays `unknown` until its reader checks it (GitHub's payload is data, not a promise).
 */
export interface RunEvent {
  pull_request?: { number?: unknown; head?: { sha?: unknown } };
  repository?: { default_branch?: unknown };
}

/**
 * Reads the run's event payload (`GITHUB_EVENT_PATH`) once, for every reader of the command. Null
 * when the runner names no file, or the file is not a JSON object: what it would have said is then
 * not guessed.
 */
export async function readRunEvent(env: Readonly<Record<string, string | undefined>>): Promise<RunEvent | null> {
  if (!env.GITHUB_EVENT_PATH) return null;
  const event = await readFile(env.GITHUB_EVENT_PATH, 'utf8').then((text) => JSON.parse(text) as unknown, () => null);
  return typeof event === 'object' && event !== null ? (event as RunEvent) : null;
}
