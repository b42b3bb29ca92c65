import { ALL_PERMISSIONS, type Permission, type Session } from '../../src/api/types.js';
import type { RemoteProject } from '../../src/plan/types.js';
import type { Style } from './style.js';
import { joinTerminal, term, type Terminal } from '../../src/text/terminal.js';
import { shownTime } from './format.js';

/** What postsync needs each permission for, to explain a missing one. */
const NEEDED_FOR: Record<Permission, string> = {
  'accounts-read': 'postsync accounts, and the account checks of plan and apply',
  'posts-read': 'plan, status, import and analytics',
  'posts-write': 'apply: creating and editing posts',
  'posts-publish': 'apply: scheduling posts (scheduledAt)',
  'posts-delete': 'apply --prune: deleting posts',
  'media-write': 'apply: uploading media',
};

/** Expiry warnings start this long before the key expires. */
const SOON_MS = 14 * 24 * 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Where the key of this run came from; never the key itself. */
export type KeySource = 'POSTSYNC_API_KEY' | 'local-demo-key';

export interface WhoamiView {
  session: Session;
  target: RemoteProject;
  keySource: KeySource;
}

export function missingPermissions(session: Session): { permission: Permission; neededFor: string }[] {
  const granted = new Set<string>(session.permissions);
  return ALL_PERMISSIONS.filter((permission) => !granted.has(permission)).map((permission) => ({ permission, neededFor: NEEDED_FOR[permission] }));
}

export function whoamiReport(view: WhoamiView) {
  return {
    formatVersion: 1 as const,
    command: 'whoami' as const,
    target: view.target,
    project: { id: view.session.project.id },
    key: { source: view.keySource, expiresAt: view.session.key.expiresAt },
    permissions: view.session.permissions,
    missingPermissions: missingPermissions(view.session),
  };
}

function expiry(expiresAt: string | null, options: { now: Date; timezone: string; style: Style }): Terminal {
  if (expiresAt === null) return term`never`;
  const left = Date.parse(expiresAt) - options.now.getTime();
  const when = shownTime(expiresAt, options.timezone);
  if (Number.isNaN(left)) return term`${expiresAt}`;
  if (left <= 0) return options.style.red(term`${when} (expired)`);
  const days = Math.floor(left / DAY_MS);
  const text = term`${when} (in ${days === 0 ? 'less than a day' : days === 1 ? '1 day' : `${days} days`})`;
  return left < SOON_MS ? options.style.yellow(term`${text}; ask for a new key soon`) : text;
}

export function renderWhoami(view: WhoamiView, options: { label: string; style: Style; now: Date; timezone: string }): Terminal {
  const { session } = view;
  const { style } = options;
  const rows: [string, Terminal][] = [
    ['Project', term`${session.project.id}`],
    ['API key', view.keySource === 'POSTSYNC_API_KEY' ? term`from POSTSYNC_API_KEY (not shown)` : term`the local API's demo key (POSTSYNC_API_KEY is not set)`],
    ['Expires', expiry(session.key.expiresAt, options)],
    ['Permissions', session.permissions.length > 0 ? term`${session.permissions.join(', ')}` : style.red(term`none`)],
  ];
  const out = [term`${options.label}`, term``, ...rows.map(([name, value]) => term`${style.bold(term`${`${name}:`.padEnd(13)}`)}${value}`)];
  const missing = missingPermissions(session);
  if (missing.length > 0) {
    out.push(term``, style.yellow(term`This key cannot do everything postsync does:`));
    for (const { permission, neededFor } of missing) out.push(term`  ${style.yellow(term`-`)} ${permission}: needed for ${neededFor}`);
  }
  return joinTerminal(out, '\n');
}
