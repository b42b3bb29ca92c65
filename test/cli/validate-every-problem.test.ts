import { describe, expect, it } from 'vitest';
import { DEMO_API_KEY } from '../../src/emulator/index.js';
import { loadBadCases, projectFiles } from '../fixtures/bad/corpus.js';
import { runCli } from '../helpers/cli.js';
import { useEmulator } from '../helpers/emulator.js';
import { testdir } from '../helpers/testdir.js';

const emulator = useEmulator();
/** Generous: it only catches a hung CLI. */
const TIMEOUT_MS = 120_000;

describe('validate --json', () => {
  it('shows every problem of a file, each at its own key: a wrong type hides no account problem', async () => {
    const badCase = loadBadCases().find((one) => one.name === 'wrong-type-beside-foreign-option')!;
    const dir = await testdir(projectFiles(badCase));
    const result = await runCli(['--api-url', emulator().baseUrl, 'validate', '--json'], { cwd: dir, env: { POSTSYNC_API_KEY: DEMO_API_KEY } });
    expect(result.code, result.stderr).toBe(1);
    const { diagnostics } = JSON.parse(result.stdout) as { diagnostics: { severity: string; code: string; file: string; line: number; column: number }[] };
    const errors = diagnostics.filter((d) => d.severity === 'error').map((d) => ({ code: d.code, file: d.file, line: d.line, column: d.column }));
    expect(errors).toEqual([
      { code: 'wrong-type', file: 'posts/two-targets.md', line: 4, column: 33 },
      { code: 'option-not-supported', file: 'posts/two-targets.md', line: 7, column: 7 },
    ]);
  }, TIMEOUT_MS);
});
