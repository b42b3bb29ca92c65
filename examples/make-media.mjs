// Writes the extra media of this example calendar into media/ (the files
// test/helpers/media-generators/examples.ts does not make). Solid colours and silence, but real
// files every demo account accepts. Run: node examples/make-media.mjs
import { writeFile } from 'node:fs/promises';
import '../scripts/register-ts.mjs';

const { makeJpeg, makeMp4, makePng, makeWebp } = await import('../test/helpers/media-generators/index.ts');

const files = {
  'beans.jpg': () => makeJpeg({ width: 1080, height: 1350, rgb: { r: 111, g: 78, b: 55 } }),
  'cafe.webp': () => makeWebp({ width: 1080, height: 1080, rgb: { r: 230, g: 200, b: 160 } }),
  'team.png': () => makePng({ width: 1200, height: 800, rgb: { r: 60, g: 90, b: 140 } }),
  'story.jpg': () => makeJpeg({ width: 1080, height: 1920, rgb: { r: 200, g: 60, b: 50 } }),
  'recipe.mp4': () => makeMp4({ width: 1080, height: 1920, durationSeconds: 30, videoCodec: 'avc1', audioCodec: 'mp4a' }),
};

for (const [name, make] of Object.entries(files)) await writeFile(new URL(`media/${name}`, import.meta.url), make());
console.log(`wrote ${Object.keys(files).map((name) => `media/${name}`).join(', ')}`);
