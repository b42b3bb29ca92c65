import { fileURLToPath } from 'node:url';
import { defineConfig, type ViteUserConfig } from 'vitest/config';

/**
 * The vitest config Stryker runs for one folder under mutation (`npm run mutate`): only in-process
 * tests of that folder, none that spawns the built CLI (a mutant lives in the sandbox's src/, not
 * in dist/, so a CLI test could never see it).
 */
export function mutationTestConfig(include: string[], exclude: string[] = []): ViteUserConfig {
  return defineConfig({
    root: fileURLToPath(new URL('../..', import.meta.url)),
    test: { include, exclude: ['**/node_modules/**', ...exclude], testTimeout: 30_000, hookTimeout: 30_000 },
  });
}
