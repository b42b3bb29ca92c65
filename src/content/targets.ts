import type { OptionsInput } from '../api/types.js';
import type { Diagnostic } from '../diagnostics.js';
import { didYouMean } from '../text/did-you-mean.js';
import { compareText } from '../text/ordering.js';
import { resolveAccount } from '../config/account-ids.js';
import { fitsOptionSchema, OPTION_INPUT_FIELDS } from './schema.js';
import type { SourcePosition, TargetKeys, TargetShape } from './types.js';
import type { YamlSource } from '../text/yaml-source.js';

export interface NormalizedTargets {
  /** Sorted by socialAccountId. */
  targets: TargetShape[];
  /** Alias or uuid as written, parallel to `targets`. */
  labels: string[];
  /** Position of each target entry, parallel to `targets`. */
  positions: (SourcePosition | null)[];
  /** Index of each target's entry under `targets:` as written, parallel to `targets`. */
  entries: number[];
  /** Where each target's own keys are written, parallel to `targets`. */
  keys: TargetKeys[];
  diagnostics: Diagnostic[];
}

interface TargetContext {
  file: string;
  locate: YamlSource['locate'];
  /** Alias → uuid, from the config. */
  accounts: Readonly<Record<string, string>>;
}

/**
 * `targets:` entries → TargetShapes. Accepts the shorthand (`- brand-photo`) and the object form;
 * resolves aliases to uuids (a raw uuid is allowed) and rejects two entries for one account.
 * Entries and option values the schema already rejected (wrong types) are skipped silently.
 */
export function normalizeTargets(raw: unknown, context: TargetContext): NormalizedTargets {
  const result: NormalizedTargets = { targets: [], labels: [], positions: [], entries: [], keys: [], diagnostics: [] };
  if (!Array.isArray(raw)) return result;
  const resolved: { target: TargetShape; label: string; position: SourcePosition | null; entry: number; keys: TargetKeys }[] = [];
  const firstIndexByAccount = new Map<string, number>();
  raw.forEach((entry: unknown, index) => {
    const isObject = typeof entry === 'object' && entry !== null && !Array.isArray(entry);
    const account = typeof entry === 'string' ? entry : isObject ? (entry as Record<string, unknown>).account : undefined;
    if (typeof account !== 'string' || account === '') return;
    const accountPath = isObject ? ['targets', index, 'account'] : ['targets', index];
    const socialAccountId = resolveAccount(account, context.accounts);
    if (socialAccountId === undefined) {
      result.diagnostics.push(unknownAccount(account, context, accountPath));
      return;
    }
    const earlier = firstIndexByAccount.get(socialAccountId);
    if (earlier !== undefined) {
      result.diagnostics.push({
        severity: 'error',
        code: 'duplicate-target',
        message: `\`${account}\` is listed twice in targets (also as entry ${earlier + 1})`,
        file: context.file,
        ...context.locate(accountPath),
        expected: 'each account at most once',
        found: `${socialAccountId} twice`,
        hint: 'Remove one of the two entries.',
      });
      return;
    }
    firstIndexByAccount.set(socialAccountId, index);
    const target: TargetShape = { socialAccountId, options: {} };
    if (isObject) {
      const { content, options } = entry as Record<string, unknown>;
      // Trimmed like the body: a YAML block scalar (`content: |`) always ends in a newline nobody means.
      if (typeof content === 'string') target.contentOverride = content.trim();
      target.options = pickOptions(options);
    }
    const keys = isObject ? keysOf(target, ['targets', index], context) : { option: {} };
    resolved.push({ target, label: account, position: context.locate(['targets', index]) ?? null, entry: index, keys });
  });
  resolved.sort((a, b) => compareText(a.target.socialAccountId, b.target.socialAccountId));
  for (const { target, label, position, entry, keys } of resolved) {
    result.targets.push(target);
    result.keys.push(keys);
    result.labels.push(label);
    result.positions.push(position);
    result.entries.push(entry);
  }
  return result;
}

function unknownAccount(account: string, context: TargetContext, path: (string | number)[]): Diagnostic {
  const aliases = Object.keys(context.accounts);
  return {
    severity: 'error',
    code: 'unknown-account',
    message: `unknown account \`${account}\``,
    file: context.file,
    ...context.locate(path),
    expected: aliases.length > 0 ? `an alias from postsync.yaml (${aliases.map((a) => `\`${a}\``).join(', ')}) or an account uuid` : 'an account uuid, or an alias defined under `accounts:` in postsync.yaml',
    found: `\`${account}\``,
    hint: didYouMean(account, aliases) ?? `Add \`${account}: <account uuid>\` under \`accounts:\` in postsync.yaml (\`postsync accounts\` lists the uuids).`,
  };
}

/** Where the keys of the target entry at `entry` are written: those it has and the options it sends. */
function keysOf(target: TargetShape, entry: (string | number)[], context: TargetContext): TargetKeys {
  const at = (...path: string[]) => context.locate([...entry, ...path], { key: true });
  const option: Record<string, SourcePosition> = {};
  for (const field of Object.keys(target.options)) {
    const position = at('options', field);
    if (position !== undefined) option[field] = position;
  }
  const content = target.contentOverride === undefined ? undefined : at('content');
  const options = at('options');
  return { ...(content === undefined ? {} : { content }), ...(options === undefined ? {} : { options }), option };
}

/** Only the known input fields with a value of the schema's type, in a stable (schema) order. */
function pickOptions(options: unknown): OptionsInput {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) return {};
  const picked: Record<string, unknown> = {};
  for (const field of OPTION_INPUT_FIELDS) {
    const value = (options as Record<string, unknown>)[field];
    if (fitsOptionSchema(field, value)) picked[field] = value;
  }
  return picked as OptionsInput;
}
