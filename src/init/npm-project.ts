import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** What `init` needs to know of a project folder that may also be an npm package. */
export interface NpmProject {
  /** A package.json is there: its node_modules/ must stay out of git. */
  hasPackageJson: boolean;
  /**
   * How a person runs postsync there: `npx postsync` when package.json lists postsync among its
   * dependencies (installed in node_modules/.bin, not on the PATH), else `postsync`.
   */
  postsyncCommand: 'npx postsync' | 'postsync';
}

const DEPENDENCY_FIELDS = ['dependencies', 'devDependencies', 'optionalDependencies'] as const;

/** Reads `dir/package.json`; one that is not valid JSON still counts as there, naming no dependency. */
export async function npmProject(dir: string): Promise<NpmProject> {
  const text = await readFile(join(dir, 'package.json'), 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });
  if (text === null) return { hasPackageJson: false, postsyncCommand: 'postsync' };
  const manifest = parsedObject(text);
  const listed = DEPENDENCY_FIELDS.some((field) => {
    const dependencies = manifest[field];
    return typeof dependencies === 'object' && dependencies !== null && Object.hasOwn(dependencies, 'postsync');
  });
  return { hasPackageJson: true, postsyncCommand: listed ? 'npx postsync' : 'postsync' };
}

function parsedObject(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
