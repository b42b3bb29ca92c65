import { mutationTestConfig } from './vitest-config.js';

/** Tests that pin src/state under `npm run mutate`. */
export default mutationTestConfig(['test/state/**/*.test.ts']);
