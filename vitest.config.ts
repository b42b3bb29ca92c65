import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Two cores, but most integration tests wait on a server or a spawned CLI: a third worker
    // keeps both cores busy while they wait.
    maxWorkers: 3,
  },
});
