import { mutationTestConfig } from './vitest-config.js';

/** Tests that pin src/plan under `npm run mutate`. */
export default mutationTestConfig(['test/plan/**/*.test.ts']);
