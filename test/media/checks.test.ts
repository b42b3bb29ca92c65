import { describe, expect, it } from 'vitest';
import type { Capabilities } from '../../src/api/types.js';
import { checkMediaAgainstCapabilities, type ProbedMedia } from '../../src/media/checks.js';
import { shaOf, testCapabilities, testPost, testRules, type TestMedia, type TestTarget } from '../helpers/media.js';

const PHOTO = { id: 'acc-photo', label: '@demo.photo' };
const VIDEO = { id: 'acc-video', label: 'brand-video' };
const SHORT = { id: 'acc-short', label: '@demo.short' };

const capabilities = new Map<string, Capabilities>([
  [PHOTO.id, testCapabilities(PHOTO.id, 'photoC', testRules('photoC'))],
  [VIDEO.id, testCapabilities(VIDEO.id, 'vidA', testRules('vidA'))],
  [SHORT.id, testCapabilities(SHORT.id, 'shortB', testRules('shortB'))],
]);

const png = (sizeBytes = 50_000): ProbedMedia => ({ contentType: 'image/png', kind: 'image', width: 1080, height: 1080, sizeBytes });
const mp4 = (durationSeconds: number | undefined, extra: Partial<ProbedMedia> = {}): ProbedMedia => ({
  contentType: 'video/mp4',
  kind: 'video',
  videoCodec: 'h264',
  audioCodec: 'aac',
  sizeBytes: 1_000_000,
  ...(durationSeconds === undefined ? {} : { durationSeconds }),
  ...extra,
});

/** Most tests check a scheduled post, where a broken rule is an error; drafts have their own test. */
const SCHEDULED = '2031-06-01T09:00:00.000Z';

function check(targets: TestTarget[], media: Array<TestMedia & { probe: ProbedMedia }>, caps = capabilities, scheduledAt: string | null = SCHEDULED) {
  const post = testPost('posts/launch.md', targets, media);
  post.shape.scheduledAt = scheduledAt;
  const probes = new Map(media.map((item) => [item.sha256 ?? shaOf(item.path), item.probe]));
  return checkMediaAgainstCapabilities(post, probes, caps);
}

const image = (path: string, probe = png()) => ({ path, kind: 'image' as const, probe });
const video = (path: string, probe: ProbedMedia) => ({ path, kind: 'video' as const, probe });

describe('checkMediaAgainstCapabilities', () => {
  it('accepts media every target allows', () => {
    expect(check([PHOTO], [image('media/cover.png'), video('media/clip.mp4', mp4(15))])).toEqual([]);
    expect(check([VIDEO, SHORT], [video('media/clip.mp4', mp4(45))])).toEqual([]);
  });

  it('names the post file, media, account and rule of a disallowed content type', () => {
    const [diagnostic, ...rest] = check([PHOTO], [image('media/anim.gif', { ...png(), contentType: 'image/gif' })]);
    expect(rest).toEqual([]);
    expect(diagnostic).toEqual({
      severity: 'error',
      readiness: true,
      code: 'media-type-not-allowed',
      file: 'posts/launch.md',
      message:
        'media/anim.gif is image/gif; @demo.photo (photoC) accepts images of type image/jpeg, image/png and image/webp (rules.media.images.contentTypes)',
      expected: 'image/jpeg, image/png and image/webp',
      found: 'image/gif',
      hint: 'Convert the file to image/jpeg, image/png or image/webp.',
    });
  });

  it('on a draft, a broken rule is a readiness warning saying what stops it from being scheduled; advice stays as it is', () => {
    const media = [image('media/anim.gif', { ...png(), contentType: 'image/gif' }), video('media/a.mp4', mp4(2)), video('media/b.mp4', mp4(undefined))];
    const draft = check([SHORT], media, capabilities, null);
    const scheduled = check([SHORT], media, capabilities);
    expect(draft.map((d) => d.code)).toEqual(scheduled.map((d) => d.code));
    expect(draft.map((d) => [d.severity, d.readiness, d.code])).toEqual([
      ['warning', true, 'media-type-not-allowed'],
      ['warning', true, 'video-too-short'],
      ['warning', undefined, 'video-duration-unknown'],
      ['warning', true, 'too-many-videos'],
      ['warning', true, 'mixed-media-not-allowed'],
    ]);
    expect(draft[0]?.message).toBe(`not ready to schedule: ${scheduled[0]?.message}`);
    expect(draft[2]).toEqual(scheduled[2]);
    expect(scheduled.filter((d) => d.readiness).map((d) => d.severity)).toEqual(['error', 'error', 'error', 'error']);
  });

  it('says an account takes no images at all', () => {
    const diagnostics = check([VIDEO], [image('media/cover.png')]);
    expect(diagnostics.map((d) => d.message)).toEqual([
      'media/cover.png is image/png; brand-video (vidA) accepts no images (rules.media.images.contentTypes)',
    ]);
  });

  it('rejects a video container the account does not take, without piling up other findings', () => {
    const diagnostics = check([SHORT], [video('media/clip.webm', { contentType: 'video/webm', kind: 'video', sizeBytes: 10 })]);
    expect(diagnostics.map((d) => [d.code, d.message])).toEqual([
      [
        'media-type-not-allowed',
        'media/clip.webm is video/webm; @demo.short (shortB) accepts videos of type video/mp4 and video/quicktime (rules.media.videos.contentTypes)',
      ],
    ]);
  });

  it('rejects files over maxBytes, exact when the rounded size equals the limit', () => {
    const big = check([PHOTO], [image('media/big.png', png(9.5 * 1024 * 1024))]);
    expect(big.map((d) => [d.code, d.message, d.found, d.expected])).toEqual([
      ['media-too-large', 'media/big.png is 9.5 MiB; @demo.photo (photoC) accepts images up to 8 MiB (rules.media.images.maxBytes)', '9.5 MiB', 'at most 8 MiB'],
    ]);
    const justOver = check([PHOTO], [image('media/edge.png', png(8 * 1024 * 1024 + 10))]);
    expect(justOver[0]?.message).toBe(
      'media/edge.png is 8,388,618 bytes; @demo.photo (photoC) accepts images up to 8,388,608 bytes (rules.media.images.maxBytes)',
    );
    const video500 = check([SHORT], [video('media/long.mp4', mp4(30, { sizeBytes: 600 * 1024 * 1024 }))]);
    expect(video500[0]?.message).toBe('media/long.mp4 is 600 MiB; @demo.short (shortB) accepts videos up to 500 MiB (rules.media.videos.maxBytes)');
  });

  it('rejects videos shorter than minDurationSeconds', () => {
    const diagnostics = check([PHOTO], [video('media/blip.mp4', mp4(2.5))]);
    expect(diagnostics.map((d) => [d.code, d.message])).toEqual([
      ['video-too-short', 'media/blip.mp4 is 2.5 s long; @demo.photo (photoC) accepts videos of at least 3 s (rules.media.videos.minDurationSeconds)'],
    ]);
  });

  it('rejects videos longer than maxDurationSeconds, with enough digits to differ from the limit', () => {
    expect(check([PHOTO], [video('media/teaser.mp4', mp4(95.2))])[0]?.message).toBe(
      'media/teaser.mp4 is 95.2 s long; @demo.photo (photoC) accepts videos up to 90 s (rules.media.videos.maxDurationSeconds)',
    );
    expect(check([PHOTO], [video('media/teaser.mp4', mp4(90.04))])[0]?.found).toBe('90.04 s');
    expect(check([PHOTO], [video('media/teaser.mp4', mp4(90))])).toEqual([]);
  });

  it('applies maxVideoDurationSeconds to every video when it is the tighter limit', () => {
    const diagnostics = check([VIDEO], [video('media/talk.mp4', mp4(1000))]);
    expect(diagnostics.map((d) => [d.code, d.message])).toEqual([
      ['video-too-long', 'media/talk.mp4 is 1000 s long; brand-video (vidA) accepts videos up to 900 s (rules.maxVideoDurationSeconds)'],
    ]);
  });

  it('applies maxShortDurationSeconds to reels and stories', () => {
    const reel = check([{ ...PHOTO, format: 'reel' }], [video('media/teaser.mp4', mp4(75))]);
    expect(reel.map((d) => [d.code, d.message])).toEqual([
      ['video-too-long', 'media/teaser.mp4 is 75 s long; @demo.photo (photoC) accepts reels up to 60 s (rules.maxShortDurationSeconds, format: reel)'],
    ]);
    const story = check([{ ...PHOTO, format: 'story' }], [video('media/teaser.mp4', mp4(75))]);
    expect(story[0]?.message).toContain('accepts stories up to 60 s (rules.maxShortDurationSeconds, format: story)');
    expect(check([{ ...PHOTO, format: 'feed' }], [video('media/teaser.mp4', mp4(75))])).toEqual([]);
  });

  it('warns when a video on a short-video account is too long to be a short', () => {
    const diagnostics = check([SHORT], [video('media/talk.mp4', mp4(200))]);
    expect(diagnostics).toEqual([
      {
        severity: 'warning',
        code: 'video-longer-than-short',
        file: 'posts/launch.md',
        message:
          'media/talk.mp4 is 200 s long; @demo.short (shortB) shows videos up to 180 s as shorts (rules.maxShortDurationSeconds), so it is published as a regular video',
        expected: 'at most 180 s to be a short',
        found: '200 s',
      },
    ]);
    expect(check([SHORT], [video('media/talk.mp4', mp4(700))]).map((d) => d.code)).toEqual(['video-too-long']);
  });

  it('warns when a video duration could not be read', () => {
    const diagnostics = check([PHOTO], [video('media/clip.mp4', mp4(undefined))]);
    expect(diagnostics.map((d) => [d.severity, d.code, d.message])).toEqual([
      [
        'warning',
        'video-duration-unknown',
        'the duration of media/clip.mp4 could not be read; @demo.photo (photoC) accepts videos of 3 s to 90 s, checked only when the service receives the file',
      ],
    ]);
  });

  it('rejects video and audio codecs the account does not take, accepting fourcc spellings in rules', () => {
    const diagnostics = check([PHOTO], [video('media/clip.mp4', mp4(10, { videoCodec: 'vp9', audioCodec: 'opus' }))]);
    expect(diagnostics.map((d) => [d.code, d.message])).toEqual([
      ['video-codec-not-allowed', 'media/clip.mp4 is encoded as vp9; @demo.photo (photoC) accepts video codecs h264 and hevc (rules.media.videos.videoCodecs)'],
      ['audio-codec-not-allowed', 'media/clip.mp4 has opus audio; @demo.photo (photoC) accepts audio codecs aac (rules.media.videos.audioCodecs)'],
    ]);
    const rules = testRules('photoC');
    rules.media.videos.videoCodecs = ['avc1', 'hvc1'];
    rules.media.videos.audioCodecs = ['mp4a'];
    const fourccCaps = new Map([[PHOTO.id, testCapabilities(PHOTO.id, 'photoC', rules)]]);
    expect(check([PHOTO], [video('media/clip.mp4', mp4(10, { videoCodec: 'hevc' }))], fourccCaps)).toEqual([]);
  });

  it('accepts a silent video (no audio codec)', () => {
    const silent = mp4(10);
    delete silent.audioCodec;
    expect(check([PHOTO], [video('media/clip.mp4', silent)])).toEqual([]);
  });

  it('rejects more videos than maxVideos and mixed media where not allowed', () => {
    const media = [image('media/cover.png'), video('media/a.mp4', mp4(10)), video('media/b.mp4', mp4(12))];
    const diagnostics = check([SHORT], media).filter((d) => d.code !== 'media-type-not-allowed');
    expect(diagnostics.map((d) => [d.code, d.message, d.found])).toEqual([
      ['too-many-videos', 'the post has 2 videos; @demo.short (shortB) accepts at most 1 video per post (rules.attachments.maxVideos)', '2 videos'],
      [
        'mixed-media-not-allowed',
        'the post has 1 image and 2 videos; @demo.short (shortB) does not accept images and videos in one post (rules.attachments.allowMixed)',
        '1 image and 2 videos',
      ],
    ]);
    expect(check([PHOTO], media)).toEqual([]);
  });

  it('says when an account takes no videos', () => {
    const rules = testRules('photoC');
    rules.attachments.maxVideos = 0;
    const caps = new Map([[PHOTO.id, testCapabilities(PHOTO.id, 'photoC', rules)]]);
    expect(check([PHOTO], [video('media/a.mp4', mp4(10))], caps)[0]?.message).toBe(
      'the post has 1 video; @demo.photo (photoC) accepts no videos per post (rules.attachments.maxVideos)',
    );
  });

  it('limits a story to storyMax media files', () => {
    const media = [image('media/a.png'), image('media/b.png')];
    const diagnostics = check([{ ...PHOTO, format: 'story' }], media);
    expect(diagnostics.map((d) => [d.code, d.message])).toEqual([
      ['too-many-story-media', 'the post has 2 media files; @demo.photo (photoC) accepts at most 1 in a story (rules.attachments.storyMax, format: story)'],
    ]);
    expect(check([{ ...PHOTO, format: 'feed' }], media)).toEqual([]);
  });

  it('reports each failure once per account, for every target', () => {
    const diagnostics = check([PHOTO, SHORT], [image('media/cover.png'), image('media/cover.png')]);
    expect(diagnostics.map((d) => d.message)).toEqual([
      'media/cover.png is image/png; @demo.short (shortB) accepts no images (rules.media.images.contentTypes)',
    ]);
  });

  it('skips targets without capabilities or unsupported, and media without a usable probe', () => {
    const unsupported = new Map([[SHORT.id, { ...testCapabilities(SHORT.id, 'other', testRules('shortB')), supported: false }]]);
    expect(check([SHORT], [image('media/cover.png')], unsupported)).toEqual([]);
    expect(check([{ id: 'nobody', label: 'ghost' }], [image('media/cover.png')])).toEqual([]);
    const post = testPost('posts/launch.md', [SHORT], [{ path: 'media/gone.mp4', kind: 'video' }]);
    expect(checkMediaAgainstCapabilities(post, new Map(), capabilities)).toEqual([]);
    const unknown = check([SHORT], [video('media/broken.mp4', { contentType: 'video/mp4', kind: 'unknown', sizeBytes: 5 })]);
    expect(unknown).toEqual([]);
  });

  it('places diagnostics at the media entry and the target when the post has positions', () => {
    const post = testPost('posts/launch.md', [SHORT], [{ path: 'media/cover.png', kind: 'image' }, { path: 'media/a.mp4', kind: 'video' }]);
    post.locations = { targets: [{ line: 3, column: 5 }], media: [{ line: 7, column: 5 }, null], body: { line: 10, column: 1 } };
    const probes = new Map([
      [shaOf('media/cover.png'), png()],
      [shaOf('media/a.mp4'), mp4(10)],
    ]);
    const diagnostics = checkMediaAgainstCapabilities(post, probes, capabilities);
    expect(diagnostics.map((d) => [d.code, d.line, d.column])).toEqual([
      ['media-type-not-allowed', 7, 5],
      ['mixed-media-not-allowed', 3, 5],
    ]);
  });
});
