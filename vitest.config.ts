import { defineConfig } from 'vitest/config';

/** POSTSYNC_TEST_ISOLATE=1 gives every file a module graph of its own, as vitest does by default: to tell whether a failure comes from a file run before it in the same worker, and for bench/suite. */
const isolateEveryFile = process.env.POSTSYNC_TEST_ISOLATE === '1';

export default defineConfig({
  test: {
    // Generous on purpose: with both cores busy (CI under load) an end-to-end test that spawns the
    // CLI a dozen times can take several times its quiet-machine duration. No test asserts time.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Two cores, but most integration tests wait on a server or a spawned CLI: a third worker
    // keeps both cores busy while they wait.
    maxWorkers: 3,
    // An env stubbed by a test (vi.stubEnv) is put back after it: the next file in the worker
    // must not inherit it (the shared project below reuses workers).
    unstubEnvs: true,
    projects: [
      {
        extends: true,
        test: {
          name: 'shared',
          include: ['test/**/*.test.ts'],
          exclude: ['test/**/*.mocked.test.ts'],
          // Files share their worker's modules instead of importing everything again: a fresh
          // module graph per file cost an eighth of the suite's CPU (bench/README.md, "The test suite"). It
          // holds because src/ keeps no module-level mutable state and these files replace no
          // module; test/architecture/mocked-tests.test.ts keeps it so.
          isolate: isolateEveryFile,
        },
      },
      {
        extends: true,
        test: {
          name: 'mocked',
          // A file that replaces a module (vi.mock) gets a module graph of its own.
          include: ['test/**/*.mocked.test.ts'],
          isolate: true,
        },
      },
    ],
  },
});
