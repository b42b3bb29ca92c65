import type { HouseRule } from './house-rule-types.js';
import type { SlotTable } from './slots-section.js';
import type { TemplateVars } from './vars-section.js';

/**
 * The resolved configuration of one postsync project: postsync.yaml, then environment, then flags.
 * Frozen. All paths are absolute and lie inside `root`.
 */
export interface Config {
  /** Absolute project root (the folder holding postsync.yaml, or the working directory). */
  readonly root: string;
  /** Absolute folder scanned for `**\/*.md` post files; inside `root`. Default `<root>/posts`. */
  readonly contentDir: string;
  /** Absolute folder of the snippet files `{{> path }}` may include; below `root`, not hidden. Default `<root>/snippets`. */
  readonly snippetsDir: string;
  /** `prune:` of postsync.yaml: plan and apply delete the posts of removed files unless `--no-prune` is given. Default false. */
  readonly prune: boolean;
  /** Absolute path of the state file; inside `root`. Default `<root>/.postsync/state.json`. */
  readonly statePath: string;
  /** `state:` of postsync.yaml: where the state file is kept between runs. Default `{ kind: 'file' }`. */
  readonly stateHome: StateHome;
  /** IANA time zone (checked with Intl) for scheduledAt values without an offset. Default `UTC`. */
  readonly timezone: string;
  /** Account alias → socialAccountId (lower-case uuid). */
  readonly accounts: Readonly<Record<string, string>>;
  /** House rules from `rules:`, in file order (src/house-rules checks them). */
  readonly rules: readonly HouseRule[];
  /** Posting slots per account id, from `slots:` (src/slots assigns them). */
  readonly slots: SlotTable;
  /** `vars:`, for `{{ name }}` in bodies and options (src/templates renders them). */
  readonly vars: TemplateVars;
  /** Hashtag set name → its tags as one text, from `hashtags:` (`{{ hashtags.coffee }}`). */
  readonly hashtags: Readonly<Record<string, string>>;
  readonly api: ApiConfig;
}

/**
 * Where the state lives between runs. `file`: the state file is committed on the default branch.
 * `branch`: it is kept at the same path on a branch of its own that only holds state files, which
 * `postsync state pull` reads and `postsync state push` (and the apply workflow) commits to, so
 * that a protected default branch never receives a push from postsync.
 */
export type StateHome = { readonly kind: 'file' } | { readonly kind: 'branch'; readonly branch: string };

/**
 * Where the API is. `key` is a non-enumerable getter: it never shows in `util.inspect`,
 * `JSON.stringify` or object spreads, so it cannot leak through logging a config. Read it as
 * `config.api.key` exactly where a request is made.
 */
export interface ApiConfig {
  /** Base URL without trailing slash (e.g. `https://api.example.com/public/v1`); null = the embedded local API. */
  readonly url: string | null;
  /** POSTSYNC_API_KEY, or null when unset or empty. */
  readonly key: string | null;
  /** True when the local API was asked for explicitly (`--local`); then `url` is null. */
  readonly local: boolean;
  /** Where `url` was written: `--api-url`, POSTSYNC_API_URL, or postsync.yaml; null without a URL. */
  readonly urlFrom: 'flag' | 'environment' | 'file' | null;
  /** POSTSYNC_API_URL_ALLOW: origins that may receive the key under CI though the file names them (see keyDestinationRefusal). */
  readonly allowedOrigins: readonly string[];
  /** POSTSYNC_API_TIMEOUT_MS: the time one API call may take; null for the client's default. */
  readonly deadlineMs: number | null;
}

/** Command-line flags that override the files and the environment. */
export interface ConfigFlags {
  apiUrl?: string;
  local?: boolean;
}
