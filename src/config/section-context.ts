import type { Diagnostic } from '../diagnostics.js';
import { didYouMean } from '../text/did-you-mean.js';
import { resolveAccount } from './account-ids.js';
import type { DataPath, YamlSource } from '../text/yaml-source.js';

/**
 * What a reader of one section of postsync.yaml (`rules:`, `slots:`, `vars:`, `hashtags:`)
 * needs: where to report, and the account aliases. Readers run after the schema check, also when
 * it failed, and skip values of the wrong type silently (the schema already reported them).
 */
export interface SectionContext {
  /** `postsync.yaml` or `postsync.yml`. */
  file: string | undefined;
  locate: YamlSource['locate'];
  /** Alias → account uuid (lower-case), from `accounts:`. */
  accounts: Readonly<Record<string, string>>;
  diagnostics: Diagnostic[];
}

/** Adds an error (or a warning) at `path` of postsync.yaml. */
export function reportAt(context: SectionContext, path: DataPath, problem: Omit<Diagnostic, 'severity' | 'file' | 'line' | 'column' | 'key'> & { severity?: Diagnostic['severity']; atKey?: boolean }): void {
  const { severity = 'error', atKey = false, ...rest } = problem;
  context.diagnostics.push({ severity, ...rest, file: context.file, ...context.locate(path, { key: atKey }) });
}

/** An alias from `accounts:` or an account uuid → the uuid; reports an unknown name (with did-you-mean) and gives undefined. */
export function accountAt(context: SectionContext, path: DataPath, name: string, options: { atKey?: boolean } = {}): string | undefined {
  const id = resolveAccount(name, context.accounts);
  if (id !== undefined) return id;
  const aliases = Object.keys(context.accounts);
  reportAt(context, path, {
    code: 'unknown-account',
    atKey: options.atKey,
    message: `unknown account \`${name}\``,
    expected: aliases.length > 0 ? `an alias from \`accounts:\` (${aliases.map((a) => `\`${a}\``).join(', ')}) or an account uuid` : 'an account uuid, or an alias defined under `accounts:`',
    found: `\`${name}\``,
    hint: didYouMean(name, aliases) ?? `Add \`${name}: <account uuid>\` under \`accounts:\` (\`postsync accounts\` lists the uuids).`,
  });
  return undefined;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Strings of a list, each with its index; other entries (already reported by the schema) are left out. */
export function stringsOf(value: unknown): { text: string; index: number }[] {
  if (typeof value === 'string') return [{ text: value, index: -1 }];
  if (!Array.isArray(value)) return [];
  return value.flatMap((entry, index) => (typeof entry === 'string' ? [{ text: entry, index }] : []));
}

export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
