import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { packageRoot } from '../emulator/fixture/package-root.js';
import { InputError } from '../errors.js';

/** What of the package's examples/ folder makes the example calendar: its settings, posts and media, and its README. */
const EXAMPLE_PARTS = ['postsync.yaml', 'README.md', 'posts', 'media'];

/** Media of examples/ that are not media: the script that makes them. */
const isMedia = (file: string) => !file.endsWith('.mjs');

/**
 * The example calendar (`init --example`) as project-relative paths → contents, read from the
 * running postsync's examples/ (an installed package ships it): postsync.yaml with its schema line
 * pointing at `schema` (the reference a new project uses), the README, every post and every media file.
 */
export async function exampleFiles(options: { schema: string; postsyncRoot?: string }): Promise<Record<string, string | Buffer>> {
  const root = join(options.postsyncRoot ?? packageRoot(), 'examples');
  const files: Record<string, string | Buffer> = {};
  for (const part of EXAMPLE_PARTS) {
    const path = join(root, part);
    const entries = part.includes('.') ? [path] : (await readdir(path, { recursive: true, withFileTypes: true }).catch(() => [])).filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
    for (const file of entries) {
      const name = relative(root, file).split(sep).join('/');
      if (name.startsWith('media/') && !isMedia(name)) continue;
      files[name] = await readFile(file).catch(() => {
        throw new InputError(`this postsync installation has no examples/${name} (in ${root}), so init cannot write the example calendar; nothing was written`);
      });
    }
  }
  const config = files['postsync.yaml'];
  if (config === undefined) throw new InputError(`this postsync installation has no examples/ folder (in ${root}); nothing was written`);
  files['postsync.yaml'] = config.toString('utf8').replace(/^# yaml-language-server: \$schema=.*$/m, `# yaml-language-server: $schema=${options.schema}`);
  return files;
}
