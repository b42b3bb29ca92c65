import { describe, expect, it } from 'vitest';
import type { CreatePostBody } from '../../src/api/types.js';
import { canonicalJson, prettyCanonicalJson, sha256Hex } from '../../src/state/hash.js';
import { shapeHash } from '../../src/content/shape-hash.js';
import { idempotencyKey } from '../../src/state/idempotency.js';

const payload: CreatePostBody = {
  content: 'Launch',
  targets: [{ socialAccountId: 'acc-1', options: { vidATitle: 'T', shareToFeed: true } }],
  mediaIds: ['m1'],
};

describe('canonical JSON and hashes', () => {
  it('sorts keys and drops undefined', () => {
    expect(canonicalJson({ b: 1, a: { d: undefined, c: [2, 1] } })).toBe('{"a":{"c":[2,1]},"b":1}');
    expect(prettyCanonicalJson({ b: 1, a: 2 })).toBe('{\n  "a": 2,\n  "b": 1\n}\n');
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it('hashes shapes independently of key order', () => {
    const one = shapeHash({ content: 'x', scheduledAt: null, targets: [{ socialAccountId: 'a', options: { link: 'l', format: 'f' } }], media: [] });
    const two = shapeHash({ media: [], targets: [{ options: { format: 'f', link: 'l' }, socialAccountId: 'a' }], scheduledAt: null, content: 'x' });
    expect(one).toBe(two);
  });

  it('rejects circular values instead of hashing a placeholder', () => {
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    expect(() => canonicalJson(circular)).toThrow(TypeError);
  });
});

describe('idempotencyKey', () => {
  const input = { targetId: 'local:demo', calendar: '.', postKey: 'launch', payload };

  it('is deterministic, whatever the key order of the payload', () => {
    const reordered: CreatePostBody = {
      mediaIds: ['m1'],
      targets: [{ options: { shareToFeed: true, vidATitle: 'T' }, socialAccountId: 'acc-1' }],
      content: 'Launch',
    };
    expect(idempotencyKey(input)).toBe(idempotencyKey({ ...input, payload: reordered }));
    expect(idempotencyKey(input)).toMatch(/^psync-[A-Za-z0-9_-]{43}$/);
  });

  it('changes with the payload, the post key, the target and the calendar', () => {
    const keys = new Set([
      idempotencyKey(input),
      idempotencyKey({ ...input, payload: { ...payload, content: 'Launch!' } }),
      idempotencyKey({ ...input, payload: { ...payload, mediaIds: [] } }),
      idempotencyKey({ ...input, postKey: 'launch-2' }),
      idempotencyKey({ ...input, targetId: 'https://api.example.com#demo' }),
      idempotencyKey({ ...input, calendar: 'clients/acme' }),
    ]);
    expect(keys.size).toBe(6);
  });
});
