import { PostsyncError } from '../src/errors.js';

/**
 * The one place errors become output and an exit code. Typed errors print their message and
 * hint; anything else is a bug and prints its stack only with POSTSYNC_DEBUG=1.
 */
export function reportFatal(error: unknown): number {
  if (error instanceof PostsyncError) {
    process.stderr.write(`Error: ${error.message}\n`);
    if (error.hint) process.stderr.write(`  ${error.hint}\n`);
    return error.exitCode;
  }
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`Error: ${message}\n`);
  if (process.env.POSTSYNC_DEBUG === '1' && error instanceof Error && error.stack) {
    process.stderr.write(`${error.stack}\n`);
  }
  return 1;
}
