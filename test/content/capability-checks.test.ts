import { shapeHash } from '../../src/content/shape-hash.js';
import { describe, expect, it } from 'vitest';
import type { Capabilities } from '../../src/api/types.js';
import { checkAgainstCapabilities } from '../../src/content/capability-checks.js';
import type { DesiredMedia, DesiredPost, TargetShape } from '../../src/content/types.js';

const A = '00000000-0000-4000-8000-00000000000a';
const B = '00000000-0000-4000-8000-00000000000b';

function capabilities(id: string, overrides: { available?: boolean; supported?: boolean; reason?: string; caption?: Partial<Capabilities['rules']['caption']>; attachments?: Partial<Capabilities['rules']['attachments']>; options?: Capabilities['rules']['options'] } = {}): Capabilities {
  return {
    account: { id, platform: 'photoC', status: 'active' },
    supported: overrides.supported ?? true,
    available: overrides.available ?? true,
    reason: overrides.reason,
    requiredPermissions: { discover: [], draft: [], schedule: [], publish: [], upload: [] },
    rules: {
      caption: { maxLength: 100, lengthUnit: 'characters', requiredExcept: 'always', ...overrides.caption },
      attachments: { min: 0, max: 10, maxVideos: 1, storyMax: 1, allowMixed: true, ...overrides.attachments },
      options: overrides.options ?? {},
      media: {
        images: { contentTypes: ['image/png'], maxBytes: 1e7 },
        videos: { contentTypes: ['video/mp4'], videoCodecs: [], audioCodecs: [], maxBytes: 1e9, minDurationSeconds: 1, maxDurationSeconds: 600 },
      },
      notes: [],
    },
  };
}

function post(content: string, targets: TargetShape[], media: Pick<DesiredMedia, 'kind'>[] = [], scheduledAt: string | null = null): DesiredPost {
  const shape = { content, scheduledAt, targets, media: media.map((_, i) => `sha${i}`) };
  return {
    key: 'k',
    file: 'posts/k.md',
    shape,
    shapeHash: shapeHash(shape),
    fingerprint: `k:${shape.media.join(',')}`,
    media: media.map((m, i) => ({ ref: `m${i}`, path: `m${i}`, absolutePath: `/m${i}`, sha256: `sha${i}`, sizeBytes: 1, contentType: 'x', kind: m.kind })),
    targetLabels: targets.map((t) => (t.socialAccountId === A ? 'alias-a' : 'alias-b')),
    locations: { targets: targets.map((_, i) => ({ line: 3 + i, column: 5 })), media: [], body: { line: 10, column: 1 } },
  };
}

const check = (p: DesiredPost, ...caps: Capabilities[]) => checkAgainstCapabilities([p], new Map(caps.map((c) => [c.account.id, c])));

describe('checkAgainstCapabilities', () => {
  it('passes a post that fits', () => {
    expect(check(post('Hello', [{ socialAccountId: A, options: {} }]), capabilities(A))).toEqual([]);
  });

  it('names the file, the account as written and its line for an unavailable or unknown account', () => {
    const diagnostics = check(post('Hi', [{ socialAccountId: A, options: {} }, { socialAccountId: B, options: {} }]), capabilities(A, { available: false, reason: 'token expired' }));
    expect(diagnostics).toMatchObject([
      { code: 'account-unavailable', file: 'posts/k.md', line: 3, column: 5, message: 'account `alias-a` (photoC) is not available: token expired' },
      { code: 'account-not-found', file: 'posts/k.md', line: 4, message: expect.stringContaining('`alias-b`') },
    ]);
    const asWarning = checkAgainstCapabilities([post('Hi', [{ socialAccountId: A, options: {} }])], new Map([[A, capabilities(A, { available: false })]]), { unavailableAccounts: 'warning' });
    expect(asWarning).toMatchObject([{ severity: 'warning', code: 'account-unavailable' }]);
  });

  it('measures the effective text of each target in the rule unit', () => {
    const family = '👨‍👩‍👧';
    const text = family.repeat(3); // 3 graphemes, 15 code points, 24 UTF-16 units, 54 bytes
    const limit = (unit: string, maxLength: number) => capabilities(A, { caption: { lengthUnit: unit, maxLength } });
    const codes = (c: Capabilities) => check(post(text, [{ socialAccountId: A, options: {} }]), c).map((d) => d.code);
    expect(codes(limit('graphemes', 3))).toEqual([]);
    expect(codes(limit('graphemes', 2))).toEqual(['caption-too-long']);
    expect(codes(limit('characters', 15))).toEqual([]);
    expect(codes(limit('characters', 14))).toEqual(['caption-too-long']);
    expect(codes(limit('utf16', 24))).toEqual([]);
    expect(codes(limit('utf16', 23))).toEqual(['caption-too-long']);
    expect(codes(limit('bytes', 54))).toEqual([]);
    const [bytes] = check(post(text, [{ socialAccountId: A, options: {} }]), limit('bytes', 53));
    expect(bytes).toMatchObject({ expected: 'at most 53 bytes (UTF-8)', found: '54 bytes (UTF-8)' });

    const override = check(post('short', [{ socialAccountId: A, contentOverride: 'x'.repeat(11), options: {} }]), limit('characters', 10));
    expect(override).toMatchObject([{ code: 'caption-too-long', message: expect.stringContaining('`content` of this target') }]);
  });

  it('requires a caption as requiredExcept says', () => {
    const codes = (requiredExcept: string, media: Pick<DesiredMedia, 'kind'>[]) =>
      check(post(' ', [{ socialAccountId: A, options: {} }], media), capabilities(A, { caption: { requiredExcept } })).map((d) => d.code);
    expect(codes('always', [])).toEqual([]);
    expect(codes('never', [{ kind: 'video' }])).toEqual(['caption-required']);
    expect(codes('media', [])).toEqual(['caption-required']);
    expect(codes('media', [{ kind: 'image' }])).toEqual([]);
    expect(codes('video', [{ kind: 'image' }])).toEqual(['caption-required']);
    expect(codes('video', [{ kind: 'video' }])).toEqual([]);
    expect(check(post('', [{ socialAccountId: A, contentOverride: 'own text', options: {} }]), capabilities(A, { caption: { requiredExcept: 'never' } }))).toEqual([]);
  });

  it('checks option fields against the account rules', () => {
    const rules: Capabilities['rules']['options'] = {
      format: { type: 'string', values: ['feed', 'story'], required: true },
      vidATitle: { type: 'string', maxLength: 5 },
      vidATags: { type: 'array', maxItems: 2, maxLength: 4 },
    };
    const diagnostics = check(
      post('Hi', [{ socialAccountId: A, options: { vidATitle: 'too long', vidATags: ['a', 'b', 'toolong'], shareToFeed: true, vidAMadeForKids: false } }]),
      capabilities(A, { options: rules }),
    );
    expect(diagnostics.map((d) => d.code)).toEqual(['option-too-long', 'option-too-long', 'option-too-many-items', 'option-not-supported', 'option-not-supported', 'option-required']);
    const wrongValue = check(post('Hi', [{ socialAccountId: A, options: { format: 'fed' } }]), capabilities(A, { options: rules }));
    expect(wrongValue).toMatchObject([{ code: 'option-value-not-allowed', expected: 'one of `feed`, `story`', found: '`fed`', hint: 'did you mean `feed`?' }]);
  });

  it('checks the attachment count', () => {
    const codes = (media: Pick<DesiredMedia, 'kind'>[]) => check(post('Hi', [{ socialAccountId: A, options: {} }], media), capabilities(A, { attachments: { min: 1, max: 2 } })).map((d) => d.code);
    expect(codes([])).toEqual(['too-few-attachments']);
    expect(codes([{ kind: 'image' }, { kind: 'image' }])).toEqual([]);
    expect(codes([{ kind: 'image' }, { kind: 'image' }, { kind: 'image' }])).toEqual(['too-many-attachments']);
  });

  it('a draft may be incomplete: publishing rules are readiness warnings that say what is missing, errors once scheduled', () => {
    const rules = capabilities(A, { caption: { requiredExcept: 'media', maxLength: 5 }, attachments: { min: 1, max: 1 }, options: { vidATitle: { type: 'string', required: true } } });
    rules.rules.media.images.contentTypes = [];
    const incomplete = (scheduledAt: string | null) => check(post('', [{ socialAccountId: A, options: {} }], [], scheduledAt), rules);
    const draft = incomplete(null);
    expect(draft).toEqual([
      expect.objectContaining({ severity: 'warning', readiness: true, code: 'caption-required', message: 'not ready to schedule: `alias-a` (photoC) needs a text' }),
      expect.objectContaining({ severity: 'warning', readiness: true, code: 'option-required', message: 'not ready to schedule: `alias-a` (photoC) needs the option `vidATitle`' }),
      expect.objectContaining({ severity: 'warning', readiness: true, code: 'too-few-attachments', message: 'not ready to schedule: `alias-a` (photoC) needs at least 1 video', hint: 'Add one video under `media:`.' }),
    ]);
    const scheduled = incomplete('2031-06-01T09:00:00.000Z');
    expect(scheduled.map((d) => [d.severity, d.readiness, d.code, d.message])).toEqual(draft.map((d) => ['error', true, d.code, d.message.replace('not ready to schedule: ', '')]));

    const tooLong = check(post('x'.repeat(6), [{ socialAccountId: A, options: {} }], [{ kind: 'image' }, { kind: 'image' }]), capabilities(A, { caption: { maxLength: 5 }, attachments: { max: 1 } }));
    expect(tooLong.map((d) => [d.severity, d.readiness, d.code])).toEqual([
      ['warning', true, 'caption-too-long'],
      ['warning', true, 'too-many-attachments'],
    ]);
  });

  it('what no post may have stays an error on a draft', () => {
    const rules = capabilities(A, { options: { format: { type: 'string', values: ['feed'] }, link: { type: 'string', maxLength: 3 }, vidATags: { type: 'array', maxItems: 1 } } });
    const draft = post('Hi', [{ socialAccountId: A, options: { format: 'fed', link: 'https://x', vidATags: ['a', 'b'], shareToFeed: true } }, { socialAccountId: B, options: {} }]);
    expect(draft.shape.scheduledAt).toBeNull();
    expect(check(draft, rules).map((d) => [d.severity, d.readiness, d.code])).toEqual([
      ['error', undefined, 'option-value-not-allowed'],
      ['error', undefined, 'option-too-long'],
      ['error', undefined, 'option-too-many-items'],
      ['error', undefined, 'option-not-supported'],
      ['error', undefined, 'account-not-found'],
    ]);
  });
});
