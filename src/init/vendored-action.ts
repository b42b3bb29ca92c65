import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { packageRoot } from '../emulator/fixture/package-root.js';
import { InputError } from '../errors.js';

/** Where `init` puts its copy of the postsync action; the workflows' `uses:` names this folder. */
export const VENDORED_ACTION_DIR = '.github/actions/postsync';

/**
 * The build's files (scripts/bundle-action.mjs writes exactly these, relative to action/) and what
 * each holds: postsync's own code apart from the packages it uses, so a review reads the first.
 */
const BUILD_FILES: ReadonlyArray<readonly [file: string, holds: string]> = [
  ['postsync.mjs', 'the entry action.yml runs (postsync, ours)'],
  ['parse-worker.mjs', "the entry of the parse pool's worker threads (ours)"],
  ['postsync-code.mjs', "postsync's own code, unminified, each module under a `// <module path>` line (ours)"],
  ['postsync-generated.mjs', "code generated from ours: the JSON Schemas' validators, the calendar page's minified script (ours, generated)"],
  ['third-party.mjs', 'the npm packages postsync uses: undici, yaml, ajv, commander, gray-matter, … (third-party)'],
  ['rolldown-runtime.mjs', "the bundler's helpers for loading CommonJS packages (third-party)"],
];

/** The files of the action, relative to the postsync package root and to VENDORED_ACTION_DIR. */
const ACTION_FILES = ['action.yml', ...BUILD_FILES.map(([file]) => `action/${file}`), 'schemas/fixture.schema.json'];

/** A size as a reader sees it (1 KiB at least, so that no file reads as empty). */
const kib = (bytes: number) => `${Math.max(1, Math.round(bytes / 1024)).toLocaleString('en-US')} KiB`;

const readme = (version: string, sizes: ReadonlyMap<string, number>) => `# postsync ${version}, the GitHub Action

\`postsync init\` copied this action here so that the workflows in .github/workflows/ run only
code this repository holds: nothing is downloaded when they run, and a change to it is a commit
you can review like any other. \`action/\` is postsync's self-contained build, in files that keep
postsync's own code apart from the packages it uses:

| File | Size | Holds |
|---|---:|---|
${BUILD_FILES.map(([file, holds]) => `| \`action/${file}\` | ${kib(sizes.get(`action/${file}`) ?? 0)} | ${holds} |`).join('\n')}

To review an update, read the diff of \`action/postsync-code.mjs\` (and of the two entries); the
others change with the versions of the generated validators and of the packages.

To move to another postsync version, install that version and run \`postsync init --update-action\`
in this repository: it rewrites this folder and nothing else. Commit the result.

\`SHA256SUMS\` lists the SHA-256 of every other file here (\`sha256sum -c SHA256SUMS\` checks them).
\`postsync init --check-action\`, run with the postsync you installed, says whether this folder is
exactly that version's action, byte for byte, and names every file that differs.
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
  const sizes = new Map(ACTION_FILES.map((file) => [file, Buffer.byteLength(files[`${VENDORED_ACTION_DIR}/${file}`]!)]));
  files[`${VENDORED_ACTION_DIR}/README.md`] = readme(version, sizes);
  files[`${VENDORED_ACTION_DIR}/SHA256SUMS`] = Object.entries(files)
    .map(([file, contents]) => `${createHash('sha256').update(contents).digest('hex')}  ${file.slice(VENDORED_ACTION_DIR.length + 1)}\n`)
    .sort((a, b) => (a.slice(66) < b.slice(66) ? -1 : 1))
    .join('');
  return files;
}

/** How the vendored action of a project differs from the running postsync's (repository-relative paths). */
export interface ActionCheck {
  /** The running postsync's version. */
  version: string;
  /** Files whose bytes differ. */
  changed: string[];
  /** Files the running postsync's action has and the copy lacks. */
  missing: string[];
  /** Files in the copy that are no part of the action. */
  extra: string[];
  /** Files compared. */
  files: number;
}

/**
 * Compares the project's copy of the action (`dir`/VENDORED_ACTION_DIR) with what `init` would
 * write with the running postsync, byte for byte: any edit (to the bundle, action.yml, a
 * version in package.json or README.md, SHA256SUMS) is a difference.
 */
export async function checkVendoredAction(options: { dir: string; postsyncRoot?: string }): Promise<ActionCheck> {
  const expected = await vendoredActionFiles(options.postsyncRoot === undefined ? {} : { postsyncRoot: options.postsyncRoot });
  const folder = join(options.dir, VENDORED_ACTION_DIR);
  const entries = await readdir(folder, { recursive: true, withFileTypes: true }).catch(() => []);
  const present = entries.filter((entry) => entry.isFile() || entry.isSymbolicLink()).map((entry) => `${VENDORED_ACTION_DIR}/${relative(folder, join(entry.parentPath, entry.name)).split(sep).join('/')}`);
  const changed: string[] = [];
  for (const file of present.filter((path) => path in expected)) {
    const actual = await readFile(join(options.dir, file));
    if (!actual.equals(Buffer.from(expected[file]!))) changed.push(file);
  }
  const { version } = JSON.parse(await readFile(join(options.postsyncRoot ?? packageRoot(), 'package.json'), 'utf8')) as { version: string };
  return {
    version,
    changed: changed.sort(),
    missing: Object.keys(expected).filter((file) => !present.includes(file)).sort(),
    extra: present.filter((file) => !(file in expected)).sort(),
    files: Object.keys(expected).length,
  };
}
