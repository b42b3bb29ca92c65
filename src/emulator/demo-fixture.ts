import { ALL_PERMISSIONS } from '../api/types.js';
import type { Fixture } from './fixture.js';

/** The demo key of the default fixture; a well-known, non-secret value for local use only. */
export const DEMO_API_KEY = 'demo-key';

/** Fixed account ids of the demo fixture, one per platform; examples/ refers to them. */
export const DEMO_ACCOUNTS = {
  photo: '6f1c2d6e-0a55-4c59-9d0f-3b8f5d1a7e01',
  video: '7a2d3e4f-1b66-4d6a-8e1f-4c9a6e2b8f02',
  short: '8b3e4f50-2c77-4e7b-9f20-5dab7f3c9a03',
} as const;

/** The world of `postsync serve` without --fixture: project `demo`, one all-permission key. */
export function demoFixture(): Fixture {
  return {
    projects: [
      {
        id: 'demo',
        keys: [{ token: DEMO_API_KEY, permissions: [...ALL_PERMISSIONS] }],
        accounts: [
          { id: DEMO_ACCOUNTS.photo, platform: 'photoC', handle: '@demo.photo', status: 'active' },
          { id: DEMO_ACCOUNTS.video, platform: 'vidA', handle: '@demo.video', status: 'active' },
          { id: DEMO_ACCOUNTS.short, platform: 'shortB', handle: '@demo.short', status: 'active' },
        ],
      },
    ],
  };
}
