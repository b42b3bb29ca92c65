import { posix } from 'node:path';
import type { Diagnostic } from '../diagnostics.js';
import { isHiddenPath } from '../text/paths.js';

type Problem = Omit<Diagnostic, 'severity' | 'file' | 'line' | 'column'>;

/** Why a snippet file is not included although it may exist; `why` completes "snippet `x` is refused: …". */
export interface SnippetRefusal {
  code: 'snippet-hidden-path' | 'snippet-outside-folder' | 'snippet-ignored' | 'snippet-too-large';
  why: string;
  /** What to do, where moving the file into the snippets folder is not it. */
  hint?: string;
}

/** `snippets/./signature.md` → `snippets/signature.md`; undefined for a path that leaves the project or is absolute. */
export function snippetPath(path: string): string | undefined {
  if (path.includes('\\') || posix.isAbsolute(path)) return undefined;
  const normal = posix.normalize(path);
  return normal === '..' || normal.startsWith('../') || normal === '.' ? undefined : normal;
}

/**
 * What the name alone refuses (`path` normal, inside the project): a hidden path, or one outside
 * the snippets folder. Checked before any file is read, so a refused file is never opened.
 */
export function refusedByName(path: string, folder: string): SnippetRefusal | undefined {
  if (isHiddenPath(path)) return { code: 'snippet-hidden-path', why: 'a path with a part starting with `.` (such as `.git`, `.postsync`, `.env`) is never a snippet' };
  if (!path.startsWith(`${folder}/`)) return { code: 'snippet-outside-folder', why: `it is not inside the snippets folder \`${folder}/\`` };
  return undefined;
}

export function refusalProblem(path: string, refusal: SnippetRefusal, context: { folder: string; found: string }): Problem {
  return {
    code: refusal.code,
    message: `snippet \`${path}\` is refused: ${refusal.why}`,
    expected: `a file inside the snippets folder \`${context.folder}/\``,
    found: context.found,
    hint: refusal.hint ?? `Move the text into \`${context.folder}/\`, or set \`snippets:\` in postsync.yaml to the folder that holds your snippets.`,
  };
}
