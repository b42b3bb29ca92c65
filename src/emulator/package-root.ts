import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The postsync package root (where package.json and schemas/ live). Found by walking up from this
 * module, because it runs both from src/ (tests) and from dist/src/ (the built CLI).
 */
export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'schemas'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error('cannot find the postsync package root (package.json + schemas/)');
    dir = parent;
  }
}
