import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeJpeg, makeMp4, makePng } from './index.js';

/**
 * The media files of examples/media/, each accepted by the demo accounts of the local API:
 * images for `@demo.photo` (photoC), a vertical 15 s clip for reels and `@demo.short` (shortB),
 * a 45 s landscape video for `@demo.video` (vidA). Small enough to commit.
 */
export const EXAMPLE_MEDIA: Readonly<Record<string, () => Buffer>> = {
  'cover.png': () => makePng({ width: 1080, height: 1080, rgb: { r: 255, g: 112, b: 67 } }),
  'cover.jpg': () => makeJpeg({ width: 1080, height: 1080, rgb: { r: 38, g: 166, b: 154 } }),
  'teaser.mp4': () => makeMp4({ width: 1080, height: 1920, durationSeconds: 15, videoCodec: 'avc1', audioCodec: 'mp4a' }),
  'launch.mp4': () => makeMp4({ width: 1920, height: 1080, durationSeconds: 45, videoCodec: 'avc1', audioCodec: 'mp4a' }),
};

/** Writes every example file into `dir` (which must exist); returns the names written. */
export async function writeExampleMedia(dir: string): Promise<string[]> {
  const names = Object.keys(EXAMPLE_MEDIA);
  await Promise.all(names.map((name) => writeFile(join(dir, name), EXAMPLE_MEDIA[name]!())));
  return names;
}
