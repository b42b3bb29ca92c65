import { extname } from 'node:path';
import { MediaMemo } from '../../src/content/media-memo.js';
import type { Prober } from '../../src/content/types.js';

/** Test stand-in for src/media/probe.ts: decides by extension and counts calls per path. */
export function fakeProbe(): Prober & { calls: string[] } {
  const calls: string[] = [];
  const probe = async (absolutePath: string) => {
    calls.push(absolutePath);
    switch (extname(absolutePath)) {
      case '.png':
        return { contentType: 'image/png', kind: 'image' as const };
      case '.jpg':
        return { contentType: 'image/jpeg', kind: 'image' as const };
      case '.mp4':
        return { contentType: 'video/mp4', kind: 'video' as const };
      default:
        return { contentType: 'application/octet-stream', kind: 'unknown' as const };
    }
  };
  return Object.assign(probe, { calls });
}

/** A fresh media memo probing with `prober` (by default `fakeProbe`'s). */
export function fakeMedia(prober: Prober = fakeProbe()): MediaMemo {
  return new MediaMemo(prober);
}
