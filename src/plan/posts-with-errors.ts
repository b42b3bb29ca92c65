import type { InvalidFile } from '../content/types.js';
import type { Diagnostic } from '../diagnostics.js';
import type { ProjectState } from '../state/types.js';
import type { ReasonDetail } from './reason-details.js';
import { compareText } from '../text/ordering.js';
import type { Action, BlockedChange, Change, HeldPost, Plan, ReasonOf } from './types.js';

/** What the rule needs besides the changes. */
export interface PostErrorsContext {
  /** Every diagnostic of the plan: the files' own and the account-rule checks. */
  diagnostics: readonly Diagnostic[];
  /** Files that yield no post because of their errors. */
  invalidFiles: readonly InvalidFile[];
  /** Valid posts a schedule error of their own holds back: their files stand. */
  held: readonly HeldPost[];
  /** Keys of the posts read from valid files (full or unchanged). */
  postKeys: ReadonlySet<string>;
  /** Every post file read, valid or not: an error on any other file, or on none, concerns the whole project. */
  postFiles: ReadonlySet<string>;
  state: ProjectState;
}

/** A file that yields no post, or a post held back (`held`): what the plan has no post to plan for, by file then key. */
interface Unplanned extends InvalidFile {
  held?: true;
}

function unplanned({ invalidFiles, held }: Pick<PostErrorsContext, 'invalidFiles' | 'held'>): readonly Unplanned[] {
  if (held.length === 0) return invalidFiles;
  const posts = held.map((post): Unplanned => ({ file: post.file, key: post.key, readable: true, held: true }));
  return [...invalidFiles, ...posts].sort((a, b) => compareText(a.file, b.file) || compareText(a.key, b.key));
}

/**
 * A post with error diagnostics is blocked, and only that post, whatever found the errors (its
 * file's reading, its accounts' rules, a house rule): the rule goes by the diagnostic's `file`,
 * and by its `key` when it is about one post of the file (one occurrence of a repeat).
 * - A change whose post file has errors is `blocked`, with those errors in `diagnostics`: nothing
 *   of that post is created, updated, moved or deleted until the file is fixed.
 * - A file that yields no post pairs with the owned post whose state record names the file, or
 *   (for an owned post without a valid file) whose key is the file's; so a typo never makes a post
 *   look deleted, even with --prune. A file that pairs with nothing is a `blocked` change of its own.
 * - A file that cannot be read or parsed and pairs with no owned post may be any owned post's
 *   file renamed: while it is there, no owned post is deleted.
 * - An error on no post file (a missing content folder) blocks every change.
 */
export function blockPostsWithErrors(changes: readonly Change[], context: PostErrorsContext): Change[] {
  const invalidFiles = unplanned(context);
  const errorsByFile = new Map<string, Diagnostic[]>();
  const projectErrors: Diagnostic[] = [];
  for (const diagnostic of context.diagnostics) {
    if (diagnostic.severity !== 'error') continue;
    if (diagnostic.file === undefined || !context.postFiles.has(diagnostic.file)) projectErrors.push(diagnostic);
    else errorsByFile.set(diagnostic.file, [...(errorsByFile.get(diagnostic.file) ?? []), diagnostic]);
  }
  // An error about one post of a file (its `key`) concerns that post only, unless the file yields no post at all.
  const yieldsNone = new Set(invalidFiles.filter((invalid) => !invalid.held).map((invalid) => invalid.file));
  const errorsOf = (file: string, keys: readonly (string | undefined)[]) => {
    const errors = errorsByFile.get(file) ?? [];
    return yieldsNone.has(file) ? errors : errors.filter((d) => d.key === undefined || keys.includes(d.key));
  };
  // A post held back on its own (a time rule it breaks, no free slot) is held by a rule: its file stands.
  const heldKeys = new Set(invalidFiles.filter((invalid) => invalid.held).map((invalid) => invalid.key));
  const isHeld = (keys: readonly (string | undefined)[], files: readonly { file: string }[]) =>
    keys.some((key) => key !== undefined && heldKeys.has(key)) && files.every(({ file }) => !yieldsNone.has(file));
  const paired = new Set<Unplanned>();
  const result = changes.map((change) => {
    const files = filesOf(change, { ...context, invalidFiles }, paired).map((file) => ({ file, errors: errorsOf(file, [change.key, change.fromKey]) }));
    const withErrors = files.filter(({ errors }) => errors.length > 0);
    if (withErrors.length === 0) return change;
    return isHeld([change.key, change.fromKey], withErrors) ? heldByRule(change, withErrors) : blocked(change, withErrors);
  });
  result.push(...ownChanges(invalidFiles.filter((invalid) => !paired.has(invalid)), context, { errorsOf, isHeld }));
  const unknown = invalidFiles.filter((invalid) => !invalid.readable && !paired.has(invalid));
  return result.map((change) => {
    if (projectErrors.length > 0 && writes(change)) return blockedByProject(change, projectErrors);
    if (unknown.length > 0 && change.action === 'delete') return blockedByUnknown(change, unknown, errorsByFile);
    return change;
  });
}

/**
 * The files a change stands for: its own file and, for a post without a valid file of its key (a
 * removed owned post, the old side of a move), the file its state record names and the files that
 * yield no post under its key. Those invalid files are marked `paired`.
 */
function filesOf(change: Change, context: Pick<PostErrorsContext, 'postKeys' | 'state'> & { invalidFiles: readonly Unplanned[] }, paired: Set<Unplanned>): string[] {
  const files = change.file === null ? [] : [change.file];
  const formerKeys = [change.fromKey, context.postKeys.has(change.key) ? undefined : change.key].filter((key): key is string => key !== undefined);
  for (const key of formerKeys) {
    const recorded = context.state.posts[key]?.file ?? context.state.pending[key]?.file;
    if (recorded !== undefined && !files.includes(recorded)) files.push(recorded);
  }
  for (const invalid of context.invalidFiles) {
    // A post held back on its own stands for its key only; the other posts of its file are not it.
    const pairs = invalid.held ? formerKeys.includes(invalid.key) : files.includes(invalid.file) || formerKeys.includes(invalid.key);
    if (pairs) {
      paired.add(invalid);
      if (!files.includes(invalid.file)) files.push(invalid.file);
    }
  }
  return files;
}

/** Would apply send or record anything for this change. */
function writes(change: Change): boolean {
  return change.action !== 'noop' && change.action !== 'blocked';
}

/**
 * `change` blocked by the errors of its files; the details it was blocked for already are kept.
 * They say what is held back: what `change` would do, or what `wouldBe` names.
 */
function blocked(change: Change, files: readonly { file: string; errors: readonly Diagnostic[] }[], { wouldBe = change.action }: { wouldBe?: Action } = {}): BlockedChange {
  const details: ReasonDetail[] = [
    ...files.map(({ file, errors }): ReasonDetail => ({ code: 'file-errors', file, message: errors[0]!.message, count: errors.length })),
    { code: 'held-back', action: wouldBe },
  ];
  if (change.action === 'blocked') details.push(...change.details);
  return asBlocked(change, { reason: 'file-errors', details, diagnostics: files.flatMap(({ errors }) => errors) });
}

/**
 * `change` held back by a rule about times or slots (`reason: held-by-rule`): its file is valid, so
 * the post waits for the rule, not for a fix of the file, and is left as it is on the remote.
 */
function heldByRule(change: Change, files: readonly { errors: readonly Diagnostic[] }[], { wouldBe = change.action }: { wouldBe?: Action } = {}): BlockedChange {
  const errors = files.flatMap((file) => file.errors);
  const first = errors[0]!;
  // A house rule's message names the rule (`rule \`nights\`: …`, code `rule-<check>`); a slot's does not.
  const why: ReasonDetail = { code: 'held-by-rule', message: first.message, count: errors.length, namesRule: first.code.startsWith('rule-') };
  const wait: ReasonDetail = { code: 'rule-wait', create: wouldBe === 'create' };
  return asBlocked(change, { reason: 'held-by-rule', details: [why, wait, ...(change.action === 'blocked' ? change.details : [])], diagnostics: errors });
}

/**
 * The change as `blocked` (nothing of it is executed), with this reason and the errors behind it.
 * It keeps no field moves: the post is left as it is, and the moves came from a reading of the
 * files that lacks or misreads this post (a broken file's post reads as removed: "→ no time"), so
 * every view that shows moves (Markdown, JSON, the calendar card) would tell what does not happen.
 */
function asBlocked(change: Change, { reason, details, diagnostics }: { reason: ReasonOf<'blocked'>; details: ReasonDetail[]; diagnostics: Diagnostic[] }): BlockedChange {
  const { fields, drift, ...kept } = change;
  return { ...kept, action: 'blocked', reason, details, diagnostics };
}

/** Invalid files no change stands for, one blocked change per key (two files may claim one key). */
function ownChanges(
  invalidFiles: readonly Unplanned[],
  context: Pick<PostErrorsContext, 'postKeys'>,
  { errorsOf, isHeld }: { errorsOf: (file: string, keys: readonly string[]) => Diagnostic[]; isHeld: (keys: readonly string[], files: readonly { file: string }[]) => boolean },
): Change[] {
  const byKey = new Map<string, Unplanned[]>();
  for (const invalid of invalidFiles) {
    // A key guessed from the path of an unreadable file may be a valid post's: that post is not this file's.
    const key = context.postKeys.has(invalid.key) ? invalid.file : invalid.key;
    byKey.set(key, [...(byKey.get(key) ?? []), invalid]);
  }
  return [...byKey].map(([key, files]) => {
    const change: BlockedChange = { action: 'blocked', reason: 'file-errors', key, file: files[0]!.file, postId: null, details: [] };
    const withErrors = files.map((invalid) => ({ file: invalid.file, errors: errorsOf(invalid.file, [invalid.key]) })).filter(({ errors }) => errors.length > 0);
    const keys = files.map((invalid) => invalid.key);
    return isHeld(keys, withErrors) ? heldByRule(change, withErrors, { wouldBe: 'create' }) : blocked(change, withErrors, { wouldBe: 'create' });
  });
}

function blockedByProject(change: Change, errors: readonly Diagnostic[]): Change {
  const where = [...new Set(errors.map((error) => error.file ?? null))];
  const detail: ReasonDetail = { code: 'project-errors', where, message: errors[0]!.message, count: errors.length };
  return asBlocked(change, { reason: 'project-errors', details: [detail, ...change.details], diagnostics: [...errors] });
}

function blockedByUnknown(change: Change, unknown: readonly InvalidFile[], errorsByFile: ReadonlyMap<string, Diagnostic[]>): Change {
  const files = unknown.map((invalid) => invalid.file);
  const detail: ReasonDetail = { code: 'unreadable-file', gone: change.file ?? change.key, files };
  return asBlocked(change, { reason: 'unreadable-file', details: [detail], diagnostics: files.flatMap((file) => errorsByFile.get(file) ?? []) });
}

/** How many of those are held by a rule about times or slots (`held-by-rule`), their files valid. */
export function heldByRules(plan: Pick<Plan, 'changes'>): number {
  return plan.changes.filter((change) => change.action === 'blocked' && change.reason === 'held-by-rule').length;
}

/** The changes of a plan blocked because a file has errors, or a rule holds their post (they carry its `diagnostics`). */
export function blockedByErrors(plan: Pick<Plan, 'changes'>): Change[] {
  return plan.changes.filter((change) => change.action === 'blocked' && change.diagnostics !== undefined);
}
