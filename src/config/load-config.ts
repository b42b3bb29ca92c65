import { posix, resolve } from 'node:path';
import type { Diagnostic } from '../diagnostics.js';
import { hasErrors } from '../diagnostics.js';
import { readAllowedOrigins, readDeadlineMs } from './api-environment.js';
import { sortDiagnostics } from '../text/ordering.js';
import { isHiddenPath, isInside, relativePosix } from '../text/paths.js';
import { readConfigFile, type ConfigFile } from './config-file.js';
import { InvalidConfigError } from './invalid-config-error.js';
import { readPolicySections } from './policy-sections.js';
import { readStateSetting } from './state-section.js';
import { isRecord } from './section-context.js';
import { canonicalTimeZone, suggestTimeZone } from './timezone.js';
import type { ApiConfig, Config, ConfigFlags } from './types.js';

export interface LoadConfigOptions {
  /** The project root: where postsync.yaml is looked for and what relative paths start from. */
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  flags?: ConfigFlags;
}

export const DEFAULT_CONTENT_DIR = 'posts';
export const DEFAULT_SNIPPETS_DIR = 'snippets';
export { DEFAULT_STATE_PATH } from './state-section.js';
export const DEFAULT_TIMEZONE = 'UTC';

/**
 * postsync.yaml (optional) + POSTSYNC_API_URL / POSTSYNC_API_KEY (and the other POSTSYNC_API_*
 * settings, api-environment.ts) + flags → one frozen Config.
 * Precedence for the API URL: `--local` (no URL), then `--api-url`, then POSTSYNC_API_URL, then
 * the file. Every problem is collected and thrown at once as an InvalidConfigError.
 */
export async function loadConfig(options: LoadConfigOptions): Promise<Config> {
  const root = resolve(options.cwd);
  return configFrom(await readConfigFile(root), root, options);
}

function configFrom(configFile: ConfigFile, root: string, options: LoadConfigOptions): Config {
  const diagnostics: Diagnostic[] = [...configFile.diagnostics];
  const { data } = configFile;
  // The checks below also run when the schema failed, on the fields that have the right type, so
  // that one run lists every problem.
  const text = (value: unknown, fallback: string) => (typeof value === 'string' ? value : fallback);
  const contentDir = projectPath(text(data.content, DEFAULT_CONTENT_DIR), ['content'], { root, configFile, diagnostics, rootAllowed: true });
  const snippetsDir = snippetsFolder(text(data.snippets, DEFAULT_SNIPPETS_DIR), { root, configFile, diagnostics });
  const stateSetting = readStateSetting(configFile, diagnostics);
  const statePath = stateFile(stateSetting.file, { root, configFile, diagnostics, at: typeof data.state === 'string' ? ['state'] : ['state', 'file'] });
  const timezone = resolveTimeZone(text(data.timezone, DEFAULT_TIMEZONE), configFile, diagnostics);
  const { url, urlFrom } = resolveApiUrl(options, configFile, diagnostics);
  const apiKey = options.env.POSTSYNC_API_KEY;
  const allowedOrigins = readAllowedOrigins(options.env, diagnostics);
  const deadlineMs = readDeadlineMs(options.env, diagnostics);
  // Worked out before the errors are thrown (the policy sections name accounts), so only from well-typed entries.
  const accountEntries = isRecord(data.accounts) ? Object.entries(data.accounts).filter((entry): entry is [string, string] => typeof entry[1] === 'string') : [];
  const accounts = Object.freeze(Object.fromEntries(accountEntries.map(([alias, id]) => [alias, id.toLowerCase()])));
  const policies = readPolicySections(data, { file: configFile.file ?? undefined, locate: configFile.locate, accounts, diagnostics });
  if (hasErrors(diagnostics)) throw new InvalidConfigError(sortDiagnostics(diagnostics));

  return Object.freeze({
    root,
    contentDir,
    snippetsDir,
    prune: data.prune === true,
    statePath,
    stateHome: stateSetting.home,
    timezone,
    accounts,
    ...policies,
    api: apiConfig({ url, urlFrom, local: options.flags?.local === true, allowedOrigins, deadlineMs }, apiKey === undefined || apiKey === '' ? null : apiKey),
  });
}

/** The key lives in a closure behind a non-enumerable getter, so inspecting or serializing the config never shows it. */
function apiConfig(values: Omit<ApiConfig, 'key'>, key: string | null): ApiConfig {
  const api = { ...values };
  Object.defineProperty(api, 'key', { get: () => key, enumerable: false });
  return Object.freeze(api) as ApiConfig;
}

/** `content: .` (the whole project) is allowed; a state file cannot be the root folder itself. */
function projectPath(value: string, path: string[], context: { root: string; configFile: ConfigFile; diagnostics: Diagnostic[]; rootAllowed: boolean }): string {
  const { root, configFile, diagnostics } = context;
  const absolute = resolve(root, value);
  if (!isInside(root, absolute) || (absolute === root && !context.rootAllowed)) {
    diagnostics.push({
      severity: 'error',
      code: 'path-outside-project',
      message: `\`${path.join('.')}\` must be a path inside the project`,
      file: configFile.file ?? undefined,
      ...configFile.locate(path),
      expected: 'a relative path below the project root',
      found: `\`${value}\``,
      hint: 'Use a path relative to the folder holding postsync.yaml, without `..`.',
    });
  }
  return absolute;
}

/**
 * The state file is a path below the root, in no hidden folder but `.postsync/`: a PR must not be
 * able to make apply write into git's own files (`.git/hooks/…`) or another tool's.
 */
function stateFile(value: string, context: { root: string; configFile: ConfigFile; diagnostics: Diagnostic[]; at: string[] }): string {
  const absolute = projectPath(value, context.at, { ...context, rootAllowed: false });
  const folder = posix.dirname(relativePosix(context.root, absolute));
  const hidden = folder !== '.' && isHiddenPath(folder.replace(/^\.postsync(\/|$)/, ''));
  if (hidden && isInside(context.root, absolute)) {
    context.diagnostics.push({
      severity: 'error',
      code: 'state-folder-hidden',
      message: `\`${context.at.join('.')}\` must not be in a hidden folder other than \`.postsync/\``,
      file: context.configFile.file ?? undefined,
      ...context.configFile.locate(context.at),
      expected: 'a path such as `.postsync/state.json` or `state/postsync.json`',
      found: `\`${value}\``,
      hint: 'Hidden folders such as `.git` hold files other tools act on; keep the state under `.postsync/` or a visible folder.',
    });
  }
  return absolute;
}

/**
 * The snippets folder is a folder below the root, never hidden: `{{> path }}` reads only inside
 * it, so a hidden folder (`.git`, `.postsync`) or the root would let a post include any file.
 */
function snippetsFolder(value: string, context: { root: string; configFile: ConfigFile; diagnostics: Diagnostic[] }): string {
  const { configFile, diagnostics } = context;
  const absolute = projectPath(value, ['snippets'], { ...context, rootAllowed: false });
  const hidden = isHiddenPath(relativePosix(context.root, absolute));
  if (hidden && isInside(context.root, absolute) && absolute !== context.root) {
    diagnostics.push({
      severity: 'error',
      code: 'snippets-folder-hidden',
      message: '`snippets` must not be a hidden folder',
      file: configFile.file ?? undefined,
      ...configFile.locate(['snippets']),
      expected: 'a folder whose path has no part starting with `.`, such as `snippets`',
      found: `\`${value}\``,
      hint: 'Hidden folders (`.git`, `.postsync`, `.env*`) hold files that must never be posted; keep snippets in a visible folder.',
    });
  }
  return absolute;
}

function resolveTimeZone(value: string, configFile: ConfigFile, diagnostics: Diagnostic[]): string {
  const canonical = canonicalTimeZone(value);
  if (canonical !== undefined) return canonical;
  diagnostics.push({
    severity: 'error',
    code: 'unknown-timezone',
    message: `unknown time zone \`${value}\``,
    file: configFile.file ?? undefined,
    ...configFile.locate(['timezone']),
    expected: 'an IANA time zone name such as `Europe/Berlin` or `UTC`',
    found: `\`${value}\``,
    hint: suggestTimeZone(value) ?? 'See https://en.wikipedia.org/wiki/List_of_tz_database_time_zones.',
  });
  return DEFAULT_TIMEZONE;
}

/** The spec's `{base_url}` "includes the version prefix /public/v1": every API URL ends with it. */
const API_VERSION_PREFIX = '/public/v1';

function resolveApiUrl(options: LoadConfigOptions, configFile: ConfigFile, diagnostics: Diagnostic[]): Pick<ApiConfig, 'url' | 'urlFrom'> {
  const none = { url: null, urlFrom: null };
  if (options.flags?.local === true) return none;
  const fromFlag = options.flags?.apiUrl;
  const fromEnv = options.env.POSTSYNC_API_URL;
  if (fromFlag !== undefined && fromFlag !== '') return { url: checkUrl(fromFlag, { source: '--api-url' }, diagnostics), urlFrom: 'flag' };
  if (fromEnv !== undefined && fromEnv !== '') return { url: checkUrl(fromEnv, { source: 'POSTSYNC_API_URL' }, diagnostics), urlFrom: 'environment' };
  const fromFile = configFile.data.api?.url;
  if (typeof fromFile !== 'string') return none;
  return { url: checkUrl(fromFile, { source: '`api.url`', file: configFile.file ?? undefined, ...configFile.locate(['api', 'url']) }, diagnostics), urlFrom: 'file' };
}

/**
 * An http(s) URL without user:password (it is printed as the plan's target) and without query or
 * fragment; trailing slashes are dropped so one API always has one spelling. The value itself is
 * never echoed: a malformed URL might hold a secret.
 */
function checkUrl(value: string, where: { source: string; file?: string; line?: number; column?: number }, diagnostics: Diagnostic[]): string | null {
  const { source, ...position } = where;
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  const problem =
    url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')
      ? 'is not an http:// or https:// URL'
      : url.username !== '' || url.password !== ''
        ? 'must not contain a user name or password'
        : url.search !== '' || url.hash !== ''
          ? 'must not have a query or fragment'
          : undefined;
  if (problem !== undefined || url === undefined) {
    diagnostics.push({ severity: 'error', code: 'invalid-api-url', message: `${source} ${problem}`, ...position, expected: 'a base URL such as https://api.example.com/public/v1', hint: 'The API key goes in POSTSYNC_API_KEY, never in the URL.' });
    return null;
  }
  const base = url.href.replace(/\/+$/, '');
  if (!base.endsWith(API_VERSION_PREFIX)) {
    // Every path of the API is under the version prefix: without it every request is a 404, found only mid-run.
    diagnostics.push({
      severity: 'error',
      code: 'invalid-api-url',
      message: `${source} does not end in ${API_VERSION_PREFIX}, the API's version prefix`,
      ...position,
      expected: 'a base URL such as https://api.example.com/public/v1',
      // The origin is safe to print (no user, password or query by now); the path is not echoed.
      hint: url.pathname === '/' ? `Use ${url.origin}${API_VERSION_PREFIX}.` : `Add ${API_VERSION_PREFIX} at the end of the URL.`,
    });
    return null;
  }
  return base;
}
