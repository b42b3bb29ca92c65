/**
 * Pure-JS generators of small, real media files for tests, examples and benchmarks: each output
 * is a valid file of its format (decodable by ordinary tools), filled with one colour or silence.
 * The PNG one is the product's own (init writes an example image with it).
 */
export { makePng, type Rgb, type SolidImageOptions } from '../../../src/media/solid-png.js';
export { makeJpeg } from './jpeg.js';
export { makeGif } from './gif.js';
export { makeWebp } from './webp.js';
export { makeMp4, mp4Layout, writeMp4File, type Mp4Layout, type Mp4Options } from './mp4.js';
