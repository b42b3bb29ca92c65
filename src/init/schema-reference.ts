import { existsSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { packageRoot } from '../emulator/fixture/package-root.js';

/** Where an installed postsync keeps its schemas, relative to the project that depends on it. */
const INSTALLED_SCHEMAS = 'node_modules/postsync/schemas';

/**
 * How a file at the root of `projectDir` refers to one of postsync's JSON Schemas, for editors
 * (`# yaml-language-server: $schema=…`, .vscode/settings.json): a project inside a postsync
 * checkout (like examples/) uses the relative path to it; any other project the path where
 * `npm install --save-dev postsync` puts it, whether or not it is installed yet.
 */
export function schemaReference(projectDir: string, schemaFile: string, options: { postsyncRoot?: string } = {}): string {
  const root = options.postsyncRoot ?? packageRoot();
  const fromProject = relative(projectDir, root);
  const insideCheckout = fromProject === '' || fromProject.split(sep).every((part) => part === '..');
  if (!insideCheckout || existsSync(join(projectDir, INSTALLED_SCHEMAS, schemaFile))) return `${INSTALLED_SCHEMAS}/${schemaFile}`;
  return [...(fromProject === '' ? ['.'] : fromProject.split(sep)), 'schemas', schemaFile].join('/');
}
