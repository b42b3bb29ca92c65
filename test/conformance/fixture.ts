import type { Permission } from '../../src/api/types.js';
import { ALL_PERMISSIONS } from '../../src/api/types.js';
import type { Fixture, FixturePost } from '../../src/emulator/fixture/fixture.js';

/**
 * The world the conformance suite runs against, in the fixture format of `serve --fixture` (README). Project
 * `acme` has one key per interesting permission set; `other` owns resources that `acme` must
 * never see; `limited` has a tiny project-wide rate limit shared by two keys.
 */

export const ACCOUNTS = {
  photo: '6f1c2d6e-0a55-4c59-9d0f-3b8f5d1a7e11',
  video: '7a2d3e4f-1b66-4d6a-8e1f-4c9a6e2b8f12',
  short: '8b3e4f50-2c77-4e7b-9f20-5dab7f3c9a13',
  unavailable: '9c4f5061-3d88-4f8c-8031-6ebc8f4dab14',
  failing: 'ad506172-4e99-4a9d-9142-7fcd905ebc15',
  throttled: 'be617283-5faa-4bae-a253-80de016fcd16',
  otherProject: 'cf728394-60bb-4cbf-b364-91ef1270de17',
} as const;

/** 21 extra photoC accounts, so that 20 targets fit and 21 do not. */
export const CROWD_ACCOUNTS: readonly string[] = Array.from(
  { length: 21 },
  (_, i) => `d0000000-0000-4000-8000-${String(i + 1).padStart(12, '0')}`,
);

export const KEYS = {
  full: 'acme-full-key',
  /** The quickstart's key: `accounts-read`, `posts-read`, `posts-write` only. */
  quickstart: 'acme-quickstart-key',
  paused: 'acme-paused-key',
  expired: 'acme-expired-key',
  expiring: 'acme-expiring-key',
  other: 'other-full-key',
  limitedA: 'limited-key-a',
  limitedB: 'limited-key-b',
} as const;

export const EXPIRING_AT = '2099-01-01T00:00:00.000Z';
export const RATE_LIMIT = 4;

/** The key of project `acme` that has every permission except `permission`. */
export const keyWithout = (permission: Permission): string => `acme-without-${permission}`;

const allBut = (permission: Permission): Permission[] => ALL_PERMISSIONS.filter((p) => p !== permission);

export function conformanceFixture(options: { acmePosts?: FixturePost[] } = {}): Fixture {
  return {
    projects: [
      {
        id: 'acme',
        keys: [
          { token: KEYS.full, permissions: [...ALL_PERMISSIONS] },
          { token: KEYS.quickstart, permissions: ['accounts-read', 'posts-read', 'posts-write'] },
          { token: KEYS.paused, permissions: [...ALL_PERMISSIONS], paused: true },
          { token: KEYS.expired, permissions: [...ALL_PERMISSIONS], expiresAt: '2020-01-01T00:00:00Z' },
          { token: KEYS.expiring, permissions: ['posts-read'], expiresAt: EXPIRING_AT },
          ...ALL_PERMISSIONS.map((permission) => ({ token: keyWithout(permission), permissions: allBut(permission) })),
        ],
        accounts: [
          { id: ACCOUNTS.photo, platform: 'photoC', handle: '@acme.photo', status: 'active' },
          { id: ACCOUNTS.video, platform: 'vidA', handle: '@acme.video', status: 'active' },
          { id: ACCOUNTS.short, platform: 'shortB', handle: '@acme.short', status: 'active' },
          {
            id: ACCOUNTS.unavailable,
            platform: 'photoC',
            handle: '@acme.gone',
            status: 'disconnected',
            available: false,
            unavailableReason: 'The account was disconnected by its owner.',
          },
          { id: ACCOUNTS.failing, platform: 'photoC', handle: '@acme.failing', publishBehavior: 'fail' },
          { id: ACCOUNTS.throttled, platform: 'photoC', handle: '@acme.throttled', publishBehavior: 'throttle' },
          ...CROWD_ACCOUNTS.map((id, i) => ({ id, platform: 'photoC', handle: `@acme.crowd${i + 1}` })),
        ],
        posts: options.acmePosts ?? [],
      },
      {
        id: 'other',
        keys: [{ token: KEYS.other, permissions: [...ALL_PERMISSIONS] }],
        accounts: [{ id: ACCOUNTS.otherProject, platform: 'photoC', handle: '@other.photo' }],
      },
      {
        id: 'limited',
        rateLimit: { limit: RATE_LIMIT, windowSeconds: 3600 },
        keys: [
          { token: KEYS.limitedA, permissions: [...ALL_PERMISSIONS] },
          { token: KEYS.limitedB, permissions: [...ALL_PERMISSIONS] },
        ],
      },
    ],
  };
}
