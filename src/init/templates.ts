import { DEMO_ACCOUNTS } from '../emulator/fixture/demo-fixture.js';
import { PULLED_RECORD } from '../pipeline/state-home-sync.js';

/** Schema paths as the generated files refer to them (see schemaReference). */
export interface SchemaPaths {
  config: string;
  post: string;
}

/** postsync.yaml: the schema modeline, every setting with its default or an example, commented. */
export function configTemplate(options: { schemas: SchemaPaths; timezone: string }): string {
  return `# yaml-language-server: $schema=${options.schemas.config}
# postsync project configuration. Every setting is optional; defaults are shown commented out.

# The Public Posting API to sync with. Without it, postsync uses its embedded local API (its data is
# kept in .postsync/local-api/), so everything works with no account. POSTSYNC_API_URL overrides it.
# The API key is never written here: set POSTSYNC_API_KEY in the environment (a secret in CI).
# api:
#   url: https://api.example.com/public/v1

# Folder scanned for **/*.md post files.
# content: posts

# The remote post of a removed post file: false puts a scheduled one back to draft and keeps a
# draft; true deletes it, as \`postsync apply --prune\` does (\`--no-prune\` overrides it).
# prune: false

# The state file: which remote post belongs to which file, and what was last applied. Commit it.
# state: .postsync/state.json

# Time zone of scheduledAt values written without an offset (an IANA name). Default: UTC.
timezone: ${options.timezone}

# Aliases for account ids, usable in a post's targets. \`postsync accounts\` lists your project's
# accounts and their posting rules. These three are the demo accounts of the embedded local API:
# replace them with your own when you set api.url.
accounts:
  photo: ${DEMO_ACCOUNTS.photo} # photoC: images and short videos
  video: ${DEMO_ACCOUNTS.video} # vidA: exactly one video, needs vidATitle
  short: ${DEMO_ACCOUNTS.short} # shortB: exactly one video of 3 to 600 seconds
`;
}

/**
 * The welcome post's text. A line break in a post's body is a line break in the published post:
 * each paragraph stays on one line, however long.
 */
const WELCOME_TEXT = 'Hello from our content calendar! This post is a Markdown file in git: edit it, open a pull request, and postsync shows what merging would change.';

/** The first post: a draft for the photo account with one image, and every other field shown. */
export function welcomePostTemplate(options: { exampleSchedule: string }): string {
  return `---
# Every field is optional. Reference: docs/writing-posts.md of postsync.
# id: welcome                 # stable key; default: the path under posts/ without .md
# scheduledAt: ${options.exampleSchedule}  # when to publish, in \`timezone\`; absent: a draft
# draft: true                 # keeps the post a draft even with scheduledAt
targets:
  - photo                     # an alias from postsync.yaml, or an account id
  # - account: video          # per-account text and platform options:
  #   content: "A different text for this account"
  #   options: { vidATitle: "Welcome", vidATags: [hello] }
media:
  - path: media/welcome.png   # relative to this file or to the project root
    alt: An orange square, the colour of our brand
---
${WELCOME_TEXT}
`;
}

/**
 * .vscode/settings.json: the config schema for postsync.yaml, and the post schema mapped onto the
 * post files, which takes effect in editors that hand Markdown front-matter to the YAML language
 * server (VS Code's YAML extension does not yet; see docs/writing-posts.md).
 */
export function vscodeSettingsTemplate(options: { schemas: SchemaPaths; contentDir: string }): string {
  const settings = {
    'yaml.schemas': {
      [workspaceRelative(options.schemas.config)]: ['postsync.yaml', 'postsync.yml'],
      [workspaceRelative(options.schemas.post)]: [`${options.contentDir}/**/*.md`],
    },
  };
  return `${JSON.stringify(settings, null, 2)}\n`;
}

/** VS Code reads a schema path starting with `./` or `../` as relative to the workspace folder. */
function workspaceRelative(path: string): string {
  return path.startsWith('.') ? path : `./${path}`;
}

/** Lines .gitignore needs: the embedded API's data, the state lock, the state journal and the commit a state pull read (never committed). */
export const GITIGNORE_ENTRIES = ['.postsync/local-api/', '.postsync/*.lock', '.postsync/*.lock.takeover', '.postsync/*.journal', PULLED_RECORD];

/** The .gitignore line of a project with a package.json: its installed packages are never committed. */
export const NODE_MODULES_ENTRY = 'node_modules/';

/** The git merge driver `postsync state merge` is registered under (see STATE_MERGE_GIT_CONFIG). */
export const STATE_MERGE_DRIVER = 'postsync-state';

/** `.gitattributes` lines: the state file is merged by postsync, entry by entry, instead of by lines. */
export const GITATTRIBUTES_ENTRIES = [`.postsync/state.json merge=${STATE_MERGE_DRIVER}`];

/** The one-line git config that tells git how to run the driver (once per clone; CI does it itself). */
export const STATE_MERGE_GIT_CONFIG = `git config merge.${STATE_MERGE_DRIVER}.driver "npx postsync state merge %O %A %B"`;
