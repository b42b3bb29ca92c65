import { DEMO_API_KEY } from '../../src/emulator/index.js';
import { StateSeal } from '../../src/state/seal.js';
import type { StateProject } from '../../src/state/state-file.js';

/**
 * The seal postsync uses for `target` with the demo key, for a calendar at the root of its
 * repository (or outside any, as a test directory is): what a test's state records must carry
 * to be acted on, like those an apply writes.
 */
export function testSeal(target: Pick<StateProject, 'id'>, options: { apiKey?: string; calendar?: string } = {}): StateSeal {
  return new StateSeal({ apiKey: options.apiKey ?? DEMO_API_KEY, targetId: target.id, calendar: options.calendar ?? '.' });
}
