import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { HealthProblem } from './health-report.js';

/** The 1-based line of the first front-matter line that names the account (alias or id), else 1. */
function accountLine(text: string, names: readonly string[]): number {
  const lines = text.split(/\r?\n/);
  if (lines[0]?.trim() !== '---') return 1;
  for (let index = 1; index < lines.length && lines[index]!.trim() !== '---'; index++) {
    const line = lines[index]!;
    if (names.some((name) => new RegExp(`(^|[^\\w-])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^\\w-])`, 'i').test(line))) return index + 1;
  }
  return 1;
}

/**
 * Gives each problem without a line one, so it can link to it: the line of its account in the
 * file's targets when it concerns an account, else the first line. A file that no longer exists
 * (a removed post) keeps no line.
 */
export async function placeProblems(problems: readonly HealthProblem[], options: { root: string; aliases: Readonly<Record<string, string>> }): Promise<HealthProblem[]> {
  const texts = new Map<string, Promise<string | null>>();
  const textOf = (file: string) => {
    if (!texts.has(file)) texts.set(file, readFile(resolve(options.root, file), 'utf8').catch(() => null));
    return texts.get(file)!;
  };
  return Promise.all(
    problems.map(async (problem) => {
      if (problem.file === null || problem.line !== null) return problem;
      const text = await textOf(problem.file);
      if (text === null) return problem;
      const id = problem.socialAccountId?.toLowerCase();
      const names = id === undefined ? [] : [id, ...Object.entries(options.aliases).filter(([, value]) => value.toLowerCase() === id).map(([alias]) => alias)];
      return { ...problem, line: names.length === 0 ? 1 : accountLine(text, names) };
    }),
  );
}
