import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Generous on purpose: with both cores busy (CI under load) an end-to-end test that spawns the
    // CLI a dozen times can take several times its quiet-machine duration. No test asserts time.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Two cores, but most integration tests wait on a server or a spawned CLI: a third worker
    // keeps both cores busy while they wait.
    maxWorkers: 3,
  },
});
