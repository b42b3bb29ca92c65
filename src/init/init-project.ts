import { lstat, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { canonicalTimeZone } from '../config/timezone.js';
import { DEFAULT_CONTENT_DIR } from '../config/load-config.js';
import { guardWrite } from '../write-guard/guard-write.js';
import { InputError } from '../errors.js';
import { makePng } from '../media/solid-png.js';
import { schemaReference } from './schema-reference.js';
import { exampleFiles } from './example-files.js';
import { npmProject, type NpmProject } from './npm-project.js';
import { configTemplate, GITATTRIBUTES_ENTRIES, GITIGNORE_ENTRIES, NODE_MODULES_ENTRY, vscodeSettingsTemplate, welcomePostTemplate } from './templates.js';
import { VENDORED_ACTION_DIR, vendoredActionFiles } from './vendored-action.js';
import { EXAMPLE_DEFAULT_BRANCH, workflowFiles } from './workflows.js';
import { defaultBranch } from '../state/home-git.js';

export interface InitOptions {
  /** The project folder; created when missing. */
  dir: string;
  /** Names the first post's month folder. */
  now: Date;
  /** IANA zone written to postsync.yaml; default: this machine's zone, or UTC. */
  timezone?: string;
  /** Write the example calendar (examples/ of the package: its settings, posts and media) instead of a first post. */
  example?: boolean;
  /** The branch the apply workflow applies; default: the repository's default branch as git knows it (`defaultBranch`), else main. */
  defaultBranch?: string;
}

export interface InitResult {
  /** Project-relative paths of the files written, in order. */
  written: string[];
  /** What happened to .gitignore: entries are added to an existing one, never removed. */
  gitignore: LinesOutcome;
  /** The same for .gitattributes (the state file's merge driver). */
  gitattributes: LinesOutcome;
  /** How the project runs postsync (`npx postsync` or `postsync`), for the hints shown after init. */
  postsyncCommand: NpmProject['postsyncCommand'];
  /** The branch the apply workflow applies, and where that name came from. */
  defaultBranch: { branch: string; from: string };
}

export type LinesOutcome = 'created' | 'updated' | 'unchanged';

/**
 * Writes a new postsync project: postsync.yaml, a first post, an example image, the three GitHub
 * workflows and the postsync action they run (a copy, see vendored-action.ts), editor settings,
 * the .gitignore entries (node_modules/ too when a package.json is there) and the state file's
 * merge driver in .gitattributes. Refuses
 * (InputError, nothing written) when any of those files exists already; only .gitignore and
 * .gitattributes are extended in place.
 */
export async function initProject(options: InitOptions): Promise<InitResult> {
  const branch = await workflowBranch(options);
  const planned = plannedFiles({ ...options, defaultBranch: branch.branch });
  const files = options.example === true ? { ...withoutFirstPost(planned), ...(await exampleFiles({ schema: schemaReference(options.dir, 'config.schema.json') })), ...(await vendoredActionFiles()) } : { ...planned, ...(await vendoredActionFiles()) };
  const taken = await existing([...Object.keys(files), 'postsync.yml'], options.dir);
  if (taken.length > 0) {
    throw new InputError(`init would overwrite ${taken.length === 1 ? 'an existing file' : `${taken.length} existing files`}; nothing was written:\n${taken.map((file) => `  ${file}`).join('\n')}`, {
      hint: 'Run `postsync init` in a new folder (`postsync init --dir my-calendar`), or move those files away first.',
    });
  }
  // Every path checked before anything is written: a link (to a file or folder elsewhere) is refused, never followed.
  for (const file of [...Object.keys(files), '.gitignore', '.gitattributes']) await guardWrite(join(options.dir, file), { root: options.dir });
  for (const [file, contents] of Object.entries(files)) {
    const path = join(options.dir, file);
    await mkdir(dirname(path), { recursive: true });
    // 'wx': a file that appeared since the check above is still never overwritten.
    await writeFile(path, contents, { flag: 'wx' });
  }
  const npm = await npmProject(options.dir);
  return {
    written: Object.keys(files),
    gitignore: npm.hasPackageJson
      ? await addLines(join(options.dir, '.gitignore'), [...GITIGNORE_ENTRIES, NODE_MODULES_ENTRY], "# postsync: the embedded local API's data, the state lock and journal, the state branch commit last pulled, the installed packages")
      : await addLines(join(options.dir, '.gitignore'), GITIGNORE_ENTRIES, "# postsync: the embedded local API's data, the state lock and journal, the state branch commit last pulled"),
    gitattributes: await addLines(join(options.dir, '.gitattributes'), GITATTRIBUTES_ENTRIES, '# postsync: merge the state file entry by entry (`postsync state merge`, see its --help)'),
    postsyncCommand: npm.postsyncCommand,
    defaultBranch: branch,
  };
}

/** The branch the apply workflow applies: as given, else git's default branch of the repository holding `dir`, else main. */
export async function workflowBranch(options: { dir: string; defaultBranch?: string }): Promise<{ branch: string; from: string }> {
  if (options.defaultBranch !== undefined) return { branch: options.defaultBranch, from: '--default-branch' };
  // git runs in the nearest folder that exists: init makes --dir, and git cannot start in a folder that is not there.
  let cwd = resolve(options.dir);
  while (!existsSync(cwd) && dirname(cwd) !== cwd) cwd = dirname(cwd);
  return (await defaultBranch({ cwd, remote: 'origin' }).catch(() => null)) ?? { branch: EXAMPLE_DEFAULT_BRANCH, from: 'no git repository, the default' };
}

/**
 * Replaces the project's copy of the postsync action with the running postsync's: the one way
 * to move the workflows to another postsync version. Writes that folder and nothing else.
 */
export async function updateVendoredAction(options: { dir: string }): Promise<{ written: string[] }> {
  const files = await vendoredActionFiles();
  await rm(join(options.dir, VENDORED_ACTION_DIR), { recursive: true, force: true });
  for (const [file, contents] of Object.entries(files)) {
    await mkdir(dirname(join(options.dir, file)), { recursive: true });
    await writeFile(join(options.dir, file), contents);
  }
  return { written: Object.keys(files) };
}

function plannedFiles(options: InitOptions & { defaultBranch: string }): Record<string, string | Buffer> {
  const timezone = canonicalTimeZone(options.timezone ?? Intl.DateTimeFormat().resolvedOptions().timeZone) ?? 'UTC';
  const month = monthIn(options.now, timezone);
  const schemas = { config: schemaReference(options.dir, 'config.schema.json'), post: schemaReference(options.dir, 'post.schema.json') };
  return {
    'postsync.yaml': configTemplate({ schemas, timezone }),
    [`${DEFAULT_CONTENT_DIR}/${month.folder}/welcome.md`]: welcomePostTemplate({ exampleSchedule: `${month.next}-01 09:00` }),
    'media/welcome.png': makePng({ width: 1080, height: 1080, rgb: { r: 255, g: 112, b: 67 } }),
    ...workflowFiles({ defaultBranch: options.defaultBranch }),
    '.vscode/settings.json': vscodeSettingsTemplate({ schemas, contentDir: DEFAULT_CONTENT_DIR }),
  };
}

/** The planned files without the first post, its image and postsync.yaml: the example calendar brings its own. */
function withoutFirstPost(files: Record<string, string | Buffer>): Record<string, string | Buffer> {
  return Object.fromEntries(Object.entries(files).filter(([file]) => file !== 'postsync.yaml' && file !== 'media/welcome.png' && !file.startsWith(`${DEFAULT_CONTENT_DIR}/`)));
}

/** `yyyy-mm` of `now` in `timezone`, and of the month after it. */
function monthIn(now: Date, timezone: string): { folder: string; next: string } {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone: timezone, year: 'numeric', month: '2-digit' }).formatToParts(now);
  const year = Number(parts.find((part) => part.type === 'year')!.value);
  const month = Number(parts.find((part) => part.type === 'month')!.value);
  const format = (y: number, m: number) => `${y}-${String(m).padStart(2, '0')}`;
  return { folder: format(year, month), next: month === 12 ? format(year + 1, 1) : format(year, month + 1) };
}

async function existing(files: string[], dir: string): Promise<string[]> {
  const found = await Promise.all(files.map(async (file) => ((await lstat(join(dir, file)).catch(() => null)) === null ? null : file)));
  return found.filter((file): file is string => file !== null);
}

/** Adds the lines `entries` that `path` lacks, under `comment`; never removes or reorders a line. */
async function addLines(path: string, entries: readonly string[], comment: string): Promise<LinesOutcome> {
  const current = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });
  const present = new Set((current ?? '').split(/\r?\n/).map((line) => line.trim()));
  const missing = entries.filter((entry) => !present.has(entry));
  if (missing.length === 0) return 'unchanged';
  const separator = current === null || current === '' ? '' : current.endsWith('\n') ? '\n' : '\n\n';
  await writeFile(path, `${current ?? ''}${separator}${comment}\n${missing.join('\n')}\n`);
  return current === null ? 'created' : 'updated';
}
