import { extname } from 'node:path';
import type { MediaProbe } from '../../src/content/types.js';

/** Test stand-in for src/media/probe.ts: decides by extension and counts calls per path. */
export function fakeProbe(): MediaProbe & { calls: string[] } {
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
