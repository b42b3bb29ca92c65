/**
 * The local Public Posting API, embeddable in-process (tests, the default target of the CLI) and
 * served by `postsync serve`.
 */
export { startEmulator, type EmulatorOptions, type RunningEmulator } from './emulator.js';
export { DEMO_ACCOUNTS, DEMO_API_KEY, demoFixture } from './fixture/demo-fixture.js';
export type { Fixture, FixtureAccount, FixtureHistory, FixtureKey, FixturePost, FixtureProject, PublishBehavior } from './fixture/fixture.js';
export type { RequestLogEntry } from './http/request-log.js';
export { parseChaosSpec, type ChaosSpec } from './http/chaos.js';
export { isLoopbackAddress } from './endpoints/control.js';
