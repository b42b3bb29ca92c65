import { shapeHash } from '../../src/content/shape-hash.js';
import { createHash } from 'node:crypto';
import type { Capabilities, Platform } from '../../src/api/types.js';
import type { DesiredMedia, DesiredPost } from '../../src/content/types.js';

const MiB = 1024 * 1024;

/**
 * Rules like the emulator's photoC/vidA/shortB accounts, written out here so that media rule
 * tests state their own limits instead of following the emulator's choices.
 */
export function testRules(platform: 'photoC' | 'vidA' | 'shortB'): Capabilities['rules'] {
  const videos = {
    contentTypes: ['video/mp4', 'video/quicktime'],
    videoCodecs: ['h264', 'hevc'],
    audioCodecs: ['aac'],
  };
  const base = { caption: { maxLength: 2200, lengthUnit: 'characters', requiredExcept: 'media' }, options: {}, notes: [] };
  if (platform === 'photoC') {
    return {
      ...base,
      options: { format: { type: 'string', values: ['feed', 'story', 'reel'] } },
      attachments: { min: 1, max: 10, maxVideos: 10, storyMax: 1, allowMixed: true },
      media: {
        images: { contentTypes: ['image/jpeg', 'image/png', 'image/webp'], maxBytes: 8 * MiB },
        videos: { ...videos, maxBytes: 100 * MiB, minDurationSeconds: 3, maxDurationSeconds: 90 },
      },
      maxShortDurationSeconds: 60,
    };
  }
  const single = { min: 1, max: 1, maxVideos: 1, storyMax: 0, allowMixed: false };
  const noImages = { contentTypes: [], maxBytes: 0 };
  if (platform === 'vidA') {
    return {
      ...base,
      attachments: single,
      media: { images: noImages, videos: { ...videos, maxBytes: 2048 * MiB, minDurationSeconds: 1, maxDurationSeconds: 43200 } },
      maxVideoDurationSeconds: 900,
    };
  }
  return {
    ...base,
    attachments: single,
    media: { images: noImages, videos: { ...videos, maxBytes: 500 * MiB, minDurationSeconds: 3, maxDurationSeconds: 600 } },
    maxShortDurationSeconds: 180,
  };
}

export function testCapabilities(id: string, platform: Platform, rules: Capabilities['rules']): Capabilities {
  const none = { discover: [], draft: [], schedule: [], publish: [], upload: [] };
  return { account: { id, platform, status: 'active' }, supported: true, available: true, requiredPermissions: none, rules };
}

export interface TestTarget {
  id: string;
  label: string;
  format?: string;
}

export interface TestMedia {
  path: string;
  kind: 'image' | 'video';
  /** Defaults to a value derived from the path, so equal paths share a probe. */
  sha256?: string;
  sizeBytes?: number;
  contentType?: string;
}

/** A DesiredPost with just what media checks read: file, targets (labels, format), media. */
export function testPost(file: string, targets: TestTarget[], media: TestMedia[]): DesiredPost {
  const shape = {
    content: 'text',
    scheduledAt: null,
    targets: targets.map((target) => ({
      socialAccountId: target.id,
      options: target.format === undefined ? {} : { format: target.format },
    })),
    media: media.map((item) => item.sha256 ?? shaOf(item.path)),
  };
  return {
    key: file.replace(/\.md$/, ''),
    file,
    shape,
    shapeHash: shapeHash(shape),
    fingerprint: `${file}:${shape.media.join(',')}`,
    media: media.map(
      (item): DesiredMedia => ({
        ref: item.path,
        path: item.path,
        absolutePath: `/project/${item.path}`,
        sha256: item.sha256 ?? shaOf(item.path),
        sizeBytes: item.sizeBytes ?? 1000,
        contentType: item.contentType ?? '',
        kind: item.kind,
      }),
    ),
    targetLabels: targets.map((target) => target.label),
  };
}

/** A stand-in sha256 for a path: tests key probes by it. */
export function shaOf(path: string): string {
  return createHash('sha256').update(path).digest('hex');
}
