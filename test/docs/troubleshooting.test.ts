import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ErrorCodes } from '../../src/api/error-codes.js';
import { readDoc, REPO_ROOT } from './doc-files.js';

/**
 * The codes of the diagnostics postsync reports, read from its sources: a kebab-case literal given
 * as a diagnostic's `code` (also in a conditional), or as the code argument of the few helpers that
 * build one (`fail`, `noSlot`); `${name}-rest` templates expanded over the literal union `name`
 * takes in that file; house-rule codes from the rule kinds. The emulator's sources answer HTTP
 * requests (their codes are the API's, listed in ErrorCodes) and are left out, and so are the
 * codes of a plan change's reason details (`src/plan/reason-details.ts`): a plan's words, not problems.
 */
async function diagnosticCodes(): Promise<Set<string>> {
  const codes = new Set<string>();
  const details = await readFile(join(REPO_ROOT, 'src/plan/reason-details.ts'), 'utf8');
  const detailCodes = new Set([...details.matchAll(/\{ code: '([a-z-]+)'/g)].map((match) => match[1]!));
  const files = (await readdir(join(REPO_ROOT, 'src'), { recursive: true })).filter((path) => path.endsWith('.ts') && !path.startsWith('emulator/'));
  for (const file of files) {
    const source = await readFile(join(REPO_ROOT, 'src', file), 'utf8');
    for (const line of source.split('\n')) {
      const region = /\bcode\s*:[^,;{}]*/.exec(line)?.[0] ?? '';
      for (const match of region.matchAll(/'([a-z][a-z0-9]*(?:-[a-z0-9]+)+)'/g)) codes.add(match[1]!);
      for (const match of line.matchAll(/\b(?:fail|noSlot)\([^']*'([a-z][a-z0-9]*(?:-[a-z0-9]+)+)'/g)) codes.add(match[1]!);
      for (const match of line.matchAll(/code: `\$\{(\w+)\}(-[a-z-]+)`/g)) {
        const union = new RegExp(`\\b${match[1]}: ((?:'[a-z]+'(?: \\| )?)+)`).exec(source)?.[1];
        for (const value of union?.match(/[a-z]+/g) ?? []) codes.add(`${value}${match[2]}`);
      }
    }
  }
  const ruleTypes = await readFile(join(REPO_ROOT, 'src/config/house-rule-types.ts'), 'utf8');
  for (const match of ruleTypes.matchAll(/readonly kind: ((?:'\w+'(?: \| )?)+)/g)) {
    for (const kind of match[1]!.match(/\w+/g)!) codes.add(`rule-${kind.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`);
  }
  for (const code of detailCodes) codes.delete(code);
  return codes;
}

describe('docs/troubleshooting.md', async () => {
  const page = await readDoc('docs/troubleshooting.md');
  const codes = await diagnosticCodes();

  it('reads the codes from the sources', () => {
    expect(codes.size).toBeGreaterThan(100);
    for (const code of ['yaml-syntax', 'unknown-account', 'video-codec-not-allowed', 'audio-codec-not-allowed', 'rule-quiet-hours', 'rule-max-per-week', 'no-free-slot', 'media-not-found']) expect(codes).toContain(code);
  });

  it('has an entry for every code of a problem in a file or in postsync.yaml', () => {
    const missing = [...codes].filter((code) => !page.includes(`\`${code}\``));
    expect(missing, 'add a row for each to docs/troubleshooting.md: what it means, and the fix').toEqual([]);
  });

  it('has an entry for every error code the API can return', () => {
    expect(Object.values(ErrorCodes).filter((code) => !page.includes(`\`${code}\``))).toEqual([]);
  });

  it('has every exit code in the table of docs/automation.md', async () => {
    const automation = await readDoc('docs/automation.md');
    const table = automation.slice(automation.indexOf('## Exit codes'), automation.indexOf('## Plan files'));
    for (const code of [0, 1, 2, 3]) expect(table).toMatch(new RegExp(`^\\| ${code} \\|`, 'm'));
  });
});
