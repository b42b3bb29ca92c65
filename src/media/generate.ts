/**
 * Pure-JS generators of small, real media files for tests, examples and benchmarks: each output
 * is a valid file of its format (decodable by ordinary tools), filled with one colour or silence.
 */
export { makePng, type Rgb, type SolidImageOptions } from './generators/png.js';
export { makeJpeg } from './generators/jpeg.js';
export { makeGif } from './generators/gif.js';
export { makeWebp } from './generators/webp.js';
export { makeMp4, mp4Layout, writeMp4File, type Mp4Layout, type Mp4Options } from './generators/mp4.js';
