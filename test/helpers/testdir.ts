import { rmSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, normalize, sep } from 'node:path';
import { onTestFinished } from 'vitest';

/** Directories created outside a running test (e.g. in beforeAll); removed when the worker exits. */
const leftovers = new Set<string>();
let exitHookInstalled = false;

function removeAtExit(dir: string): void {
  leftovers.add(dir);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const left of leftovers) rmSync(left, { recursive: true, force: true });
  });
}

/**
 * Creates a fresh temporary directory holding `files` (keys are relative paths with `/`, nested
 * folders are created) and returns its real absolute path (symlinks such as macOS /var resolved,
 * so path comparisons in tests are exact).
 * Called inside a test, the directory is removed when that test finishes; called elsewhere (e.g.
 * beforeAll), it is removed when the test worker exits.
 */
export async function testdir(files: Record<string, string | Buffer> = {}): Promise<string> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), 'postsync-test-')));
  try {
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
  } catch {
    removeAtExit(dir);
  }
  for (const [relativePath, contents] of Object.entries(files)) {
    const target = join(dir, normalize(relativePath));
    if (isAbsolute(relativePath) || !target.startsWith(dir + sep)) {
      throw new Error(`testdir: ${relativePath} is not a path inside the test directory`);
    }
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, contents);
  }
  return dir;
}
