import { posix } from 'node:path';
import { BUILT_IN_NAMES } from '../config/vars-section.js';
import { formatCivilDate, wallMomentOf } from '../zoned-time/index.js';

export type BuiltInName = (typeof BUILT_IN_NAMES)[number];

/** Values of the built-ins for one text; a name left out has no value here (e.g. `date` of a draft). */
export type BuiltIns = Partial<Record<BuiltInName, string>>;

/** Why a built-in can have no value, for the message. */
export const MISSING_BUILT_IN: Readonly<Record<BuiltInName, string>> = {
  'file.dir': 'the text is not in a post file',
  'file.name': 'the text is not in a post file',
  key: 'the text is not in a post file',
  date: 'the post has no `scheduledAt` (a draft)',
  'account.alias': 'the text is not for one account here',
  'account.handle': 'the handle of this account is not known (the account is not listed by the API)',
  'account.platform': 'the platform of this account is not known (the account is not listed by the API)',
};

export interface BuiltInFacts {
  key: string;
  /** Path of the post file under the content folder, forward slashes (`2027-01/launch.md`). */
  fileInContent: string;
  /** The post's instant, or null for a draft. */
  scheduledAt: string | null;
  /** The project's time zone (`config.timezone`): `{{ date }}` is the date there. */
  timezone: string;
  /** The account the text is for; absent for a text shared by all targets. */
  account?: { alias: string; handle?: string; platform?: string };
}

/**
 * The built-ins of one post (and account): `file.dir` is the folder under the content folder
 * (empty for a file directly in it), `file.name` the file name without `.md`, `date` the
 * scheduled date in the project's time zone (YYYY-MM-DD).
 */
export function builtInValues(facts: BuiltInFacts): BuiltIns {
  const dir = posix.dirname(facts.fileInContent);
  const values: BuiltIns = {
    'file.dir': dir === '.' ? '' : dir,
    'file.name': posix.basename(facts.fileInContent).replace(/\.md$/i, ''),
    key: facts.key,
  };
  if (facts.scheduledAt !== null) values.date = formatCivilDate(wallMomentOf(Date.parse(facts.scheduledAt), facts.timezone).date);
  if (facts.account !== undefined) {
    values['account.alias'] = facts.account.alias;
    if (facts.account.handle !== undefined) values['account.handle'] = facts.account.handle;
    if (facts.account.platform !== undefined) values['account.platform'] = facts.account.platform;
  }
  return values;
}
