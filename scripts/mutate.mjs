#!/usr/bin/env node
// `npm run mutate [-- [plan|state|apply]… [--mutate <file[:lines]>]]`: mutation testing with
// Stryker of src/plan, src/state and src/apply, one folder at a time, each against its own
// in-process tests (test/mutation/<folder>.vitest.config.ts). Prints the score per folder and
// writes the HTML reports under reports/mutation/. Incremental: a re-run tests only the mutants
// whose code or covering tests changed. Not part of `npm test`.
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { Stryker } from '@stryker-mutator/core';

/** Each folder and the score it must hold (typed-invalid mutants excluded, timeouts caught). */
const FOLDERS = { plan: 95, state: 90, apply: 85 };

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { mutate: { type: 'string', multiple: true }, help: { type: 'boolean', short: 'h' } },
});
if (values.help) {
  console.log(`Usage: npm run mutate -- [${Object.keys(FOLDERS).join('|')}]… [--mutate <file[:lines]>]…

Runs Stryker over each named folder (default: all) with the tests of test/mutation/<folder>.vitest.config.ts.
--mutate  mutate only these files (or line ranges, e.g. src/plan/diff.ts:20-40) while iterating;
          the score is then not held against the folder's target.
Reports: reports/mutation/<folder>.html`);
  process.exit(0);
}
const unknown = positionals.filter((folder) => !(folder in FOLDERS));
if (unknown.length > 0) {
  console.error(`unknown folder ${unknown.join(', ')}; choose from ${Object.keys(FOLDERS).join(', ')}`);
  process.exit(2);
}
const partial = values.mutate !== undefined;
const folders = positionals.length > 0 ? positionals : Object.keys(FOLDERS).filter((folder) => !partial || values.mutate.some((file) => file.startsWith(`src/${folder}/`)));

// The sandbox type-checks src/: it needs the generated files (git-ignored, made by the build).
execFileSync(process.execPath, ['scripts/compile-schemas.mjs'], { stdio: 'inherit' });
execFileSync(process.execPath, ['scripts/compile-calendar-client.mjs'], { stdio: 'inherit' });
mkdirSync('reports/mutation', { recursive: true });

const rows = [];
for (const folder of folders) {
  const mutate = partial ? values.mutate.filter((file) => file.startsWith(`src/${folder}/`)) : [`src/${folder}/**/*.ts`];
  // A partial run keeps its own incremental file (seeded from the folder's), so it never drops
  // the folder's other results.
  const incrementalFile = `reports/mutation/${folder}${partial ? '.partial' : ''}.incremental.json`;
  if (partial && !existsSync(incrementalFile) && existsSync(`reports/mutation/${folder}.incremental.json`)) {
    copyFileSync(`reports/mutation/${folder}.incremental.json`, incrementalFile);
  }
  const results = await new Stryker({
    mutate,
    testRunner: 'vitest',
    vitest: { configFile: `test/mutation/${folder}.vitest.config.ts`, related: false },
    checkers: ['typescript'],
    tsconfigFile: 'tsconfig.build.json',
    coverageAnalysis: 'perTest',
    // Two cores shared with the rest of the team.
    concurrency: 1,
    // On a loaded machine the first run of the folder's tests (with per-test coverage) can take
    // several times its usual minute; Stryker's default of 5 minutes then aborts the whole run.
    dryRunTimeoutMinutes: 30,
    incremental: true,
    incrementalFile,
    reporters: ['clear-text', 'progress-append-only', 'html'],
    htmlReporter: { fileName: `reports/mutation/${folder}${partial ? '.partial' : ''}.html` },
    clearTextReporter: { reportScoreTable: true, allowEmojis: false, logTests: false },
    tempDirName: '.stryker-tmp',
    ignorePatterns: ['dist', 'coverage', 'reports', 'bench', '.postsync', '*.log'],
    thresholds: { high: FOLDERS[folder], low: FOLDERS[folder] - 10, break: null },
  }).runMutationTest();
  rows.push({ folder, ...score(results) });
}

/** Stryker's mutation score: caught (killed or timed out) over every valid mutant. */
function score(results) {
  const count = (...statuses) => results.filter((result) => statuses.includes(result.status)).length;
  const caught = count('Killed', 'Timeout');
  const missed = count('Survived', 'NoCoverage');
  return { caught, missed, invalid: count('CompileError', 'RuntimeError'), ignored: count('Ignored'), percent: caught + missed === 0 ? 100 : (100 * caught) / (caught + missed) };
}

console.log('\nfolder      score   target  caught  missed  invalid');
let below = false;
for (const { folder, caught, missed, invalid, percent } of rows) {
  const target = FOLDERS[folder];
  const short = !partial && percent < target;
  below ||= short;
  console.log(`src/${folder.padEnd(6)} ${percent.toFixed(2).padStart(6)}%  ${String(target).padStart(5)}%  ${String(caught).padStart(6)}  ${String(missed).padStart(6)}  ${String(invalid).padStart(7)}${short ? '  BELOW TARGET' : ''}`);
}
if (below) process.exitCode = 1;
