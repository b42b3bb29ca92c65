import { describe, expect, it } from 'vitest';
import { DEMO_API_KEY } from '../../src/emulator/index.js';
import { demoProject } from '../e2e/project.js';
import { loadBadCases, projectFiles } from '../fixtures/bad/corpus.js';
import { runCli } from '../helpers/cli.js';
import { useEmulator } from '../helpers/emulator.js';
import { testdir } from '../helpers/testdir.js';

const emulator = useEmulator();
/** Generous: it only catches a hung CLI. */
const TIMEOUT_MS = 120_000;

async function validateJson(dir: string) {
  const result = await runCli(['--api-url', emulator().baseUrl, 'validate', '--json'], { cwd: dir, env: { POSTSYNC_API_KEY: DEMO_API_KEY } });
  const { diagnostics } = JSON.parse(result.stdout) as { diagnostics: { severity: string; code: string; file: string; line: number; column: number }[] };
  return { code: result.code, stderr: result.stderr, errors: diagnostics.filter((d) => d.severity === 'error').map((d) => ({ code: d.code, file: d.file, line: d.line, column: d.column })) };
}

describe('validate --json', () => {
  it('shows every problem of a file, each at its own key: a wrong type hides no account problem', async () => {
    const badCase = loadBadCases().find((one) => one.name === 'wrong-type-beside-foreign-option')!;
    const dir = await testdir(projectFiles(badCase));
    const { code, stderr, errors } = await validateJson(dir);
    expect(code, stderr).toBe(1);
    expect(errors).toEqual([
      { code: 'wrong-type', file: 'posts/two-targets.md', line: 4, column: 33 },
      { code: 'option-not-supported', file: 'posts/two-targets.md', line: 7, column: 7 },
    ]);
  }, TIMEOUT_MS);

  it('shows a problem of a repeated post once, not once per occurrence', async () => {
    const dir = await demoProject({
      'weekly.md': '---\nscheduledAt: 2030-01-08 10:00\nrepeat: { every: week, count: 3 }\ntargets:\n  - account: photo\n    options: { vidATitle: A title }\nmedia: [media/cover.png]\n---\nEvery week.\n',
    });
    const { code, stderr, errors } = await validateJson(dir);
    expect(code, stderr).toBe(1);
    expect(errors).toEqual([{ code: 'option-not-supported', file: 'posts/weekly.md', line: 6, column: 16 }]);
  }, TIMEOUT_MS);
});
