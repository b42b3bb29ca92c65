import { mutationTestConfig } from './vitest-config.js';

/** Tests that pin src/apply under `npm run mutate`. */
export default mutationTestConfig(['test/apply/**/*.test.ts']);
