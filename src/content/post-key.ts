import { posix, sep } from 'node:path';

/**
 * Default post key: the path under the content folder, without `.md`, forward slashes. Apart from
 * normalize-post.ts so that a reader can key a file it cannot parse without loading the parser.
 */
export function postKeyFromPath(fileInContent: string): string {
  return fileInContent.split(sep).join(posix.sep).replace(/\.md$/i, '');
}
