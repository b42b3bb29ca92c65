import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { packageRoot } from '../emulator/fixture/package-root.js';
import { InputError } from '../errors.js';

/** Where `init` puts its copy of the postsync action; the workflows' `uses:` names this folder. */
export const VENDORED_ACTION_DIR = '.github/actions/postsync';

/** The files of the action, relative to the postsync package root and to VENDORED_ACTION_DIR. */
const ACTION_FILES = ['action.yml', 'action/postsync.mjs', 'schemas/fixture.schema.json'];

const readme = (version: string) => `# postsync ${version}, the GitHub Action

\`postsync init\` copied this action here so that the workflows in .github/workflows/ run only
code this repository holds: nothing is downloaded when they run, and a change to it is a commit
you can review like any other. \`action/postsync.mjs\` is postsync's self-contained build.

To move to another postsync version, install that version and run \`postsync init --update-action\`
in this repository: it rewrites this folder and nothing else. Commit the result.
`;

/**
 * The files of the postsync action as `init` writes them into a project (project-relative paths
 * → contents), read from the running postsync's own package: the action.yml, the bundle it runs,
 * and what the bundle reads beside it (a package.json and the fixture schema mark its root).
 */
export async function vendoredActionFiles(options: { postsyncRoot?: string } = {}): Promise<Record<string, string | Buffer>> {
  const root = options.postsyncRoot ?? packageRoot();
  const { version } = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { version: string };
  const files: Record<string, string | Buffer> = {};
  for (const file of ACTION_FILES) {
    files[`${VENDORED_ACTION_DIR}/${file}`] = await readFile(join(root, file)).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
      throw new InputError(`this postsync installation has no ${file} (in ${root}), so init cannot copy the GitHub Action; nothing was written`, {
        hint: 'Install postsync from npm (`npm install --save-dev postsync`) or use a git checkout of it, then run init again.',
      });
    });
  }
  files[`${VENDORED_ACTION_DIR}/package.json`] = `${JSON.stringify({ name: 'postsync-action', version, private: true, type: 'module' }, null, 2)}\n`;
  files[`${VENDORED_ACTION_DIR}/README.md`] = readme(version);
  return files;
}
