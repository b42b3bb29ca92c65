import { canonicalJson, sha256Hex } from '../state/hash.js';
import type { PostShape } from './types.js';

/** Hash of a normalized PostShape; equal shapes (desired or live) hash equal. */
export function shapeHash(shape: PostShape): string {
  return sha256Hex(canonicalJson(shape));
}
