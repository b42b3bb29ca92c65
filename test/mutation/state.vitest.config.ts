import { mutationTestConfig } from './vitest-config.js';

/** Tests that pin src/state under `npm run mutate`; not those that run the built CLI (`runCli`). */
export default mutationTestConfig(['test/state/**/*.test.ts'], ['test/state/confirm-escapes.test.ts', 'test/state/state-key-escapes.test.ts']);
