import { lstat, readFile } from 'node:fs/promises';
import { posix, resolve } from 'node:path';
import type { Capabilities } from '../api/types.js';
import { InputError } from '../errors.js';
import { checkImage, checkVideo, type ProbedMedia } from '../media/media-rules.js';
import { formatBytes } from '../media/format.js';
import { probeMediaBytes } from '../media/probe.js';
import { createFileExclusive } from '../state/atomic.js';
import { relativePosix } from '../text/paths.js';
import type { PostFileEditor } from './post-file-editor.js';

/** A media file the page adds to a post: its bytes, and the accounts the editor has chosen for the post (ids). */
export interface MediaUpload {
  /** The post file, as the calendar names it. */
  file: string;
  /** The file's name on the writer's machine: only its words are kept (the type comes from the bytes). */
  name: string;
  bytes: Buffer;
  accounts: string[];
}

/** The largest file the page adds (a bigger video goes in with a file manager, and `media:` in an editor). */
export const MAX_UPLOAD_BYTES = 32 * 1024 * 1024;
/** Names tried (`post.png`, `post-2.png`, …) before giving up. */
const MAX_NAMES = 50;
/** The project's folder of media files, where the page puts what it adds. */
const MEDIA_FOLDER = 'media';
const EXTENSIONS: Record<string, string> = { 'image/jpeg': '.jpg', 'image/png': '.png', 'image/webp': '.webp', 'image/gif': '.gif', 'video/mp4': '.mp4', 'video/quicktime': '.mov', 'video/webm': '.webm', 'video/x-m4v': '.m4v' };

/** What an upload is checked with: the accounts' rules by id, and each account's name as the page shows it. */
export interface MediaContext {
  editor: PostFileEditor;
  capabilities: ReadonlyMap<string, Capabilities>;
  label: (account: string) => string;
}

/** What the page learns of a file it added: the path `media:` names it by, and what it is. */
export interface AddedMedia {
  path: string;
  kind: 'image' | 'video';
  contentType: string;
  sizeBytes: number;
}

/**
 * Writes a media file the page sends under the project's `media/` folder, named after the post
 * (`media/2027-02/launch.png` for `posts/2027-02/launch.md`, then `launch-2.png`, …), once its
 * bytes are known to be an image or a video that every chosen account takes (type, size, video
 * duration and codecs: the rules the plan checks). A name already holding the same bytes is that
 * file; a name taken otherwise, here or next to the post (where `media:` looks first), is skipped.
 * Nothing is overwritten, nothing is written through a link (createFileExclusive). The post file
 * is not changed here: the editor's save adds the path to `media:`.
 */
export async function addMedia(upload: MediaUpload, context: MediaContext): Promise<AddedMedia> {
  // Only for a post the editor may edit.
  await context.editor.read(upload.file);
  const shown = JSON.stringify(upload.name);
  if (upload.bytes.length === 0) throw new InputError(`${shown} is empty`, { hint: 'Choose the image or video file itself.' });
  if (upload.bytes.length > MAX_UPLOAD_BYTES) throw new InputError(`${shown} is ${formatBytes(upload.bytes.length)}; the calendar adds files of at most ${formatBytes(MAX_UPLOAD_BYTES)}`, { hint: 'Copy a larger file into the media folder and add it to `media:` in an editor.' });
  const probe = await probeMediaBytes(upload.bytes);
  if (probe.kind === 'unknown') throw new InputError(`${shown} is not an image or a video postsync can read (${probe.problem ?? 'unrecognized file format'})`, { hint: 'Choose a JPEG, PNG or WebP image, or an MP4 or MOV video.' });
  const problems = refusals(upload, { ...probe, sizeBytes: upload.bytes.length }, context);
  if (problems.length > 0) throw new InputError(`${shown} cannot go on this post: ${problems.join('; ')}`, { hint: 'Choose another file, or leave out the accounts that cannot take it.' });
  const { root, contentDir } = context.editor.project;
  const post = posix.parse(relativePosix(contentDir, resolve(root, upload.file)));
  const extension = EXTENSIONS[probe.contentType] ?? (posix.extname(upload.name).toLowerCase().match(/^\.[a-z0-9]{1,5}$/)?.[0] ?? '');
  for (let attempt = 1; attempt <= MAX_NAMES; attempt++) {
    const path = posix.join(MEDIA_FOLDER, post.dir, `${post.name}${attempt === 1 ? '' : `-${attempt}`}${extension}`);
    const absolute = resolve(root, path);
    // `media:` looks next to the post first: a file there under this name would be the one used.
    if (await lstat(resolve(root, posix.dirname(upload.file), path)).then(() => true, () => false)) continue;
    if (await createFileExclusive(absolute, upload.bytes, { root })) return added(path, probe, upload);
    if (await sameRegularFile(absolute, upload.bytes)) return added(path, probe, upload);
  }
  throw new InputError(`postsync found no free name for ${shown} under ${MEDIA_FOLDER}/ after ${MAX_NAMES} tries`, { hint: 'Rename some of the files it tried, or add the file in an editor.' });
}

function added(path: string, probe: { kind: string; contentType: string }, upload: MediaUpload): AddedMedia {
  return { path, kind: probe.kind as AddedMedia['kind'], contentType: probe.contentType, sizeBytes: upload.bytes.length };
}

/** The errors the plan would find with this file on each chosen account (warnings are left to the plan). */
function refusals(upload: MediaUpload, probe: ProbedMedia, context: MediaContext): string[] {
  return upload.accounts.flatMap((id) => {
    const account = context.capabilities.get(id);
    if (account === undefined || !account.supported) return [];
    const rules = { account: `${context.label(id)} (${account.account.platform})`, rules: account.rules };
    const findings = probe.kind === 'image' ? checkImage(upload.name, probe, rules) : checkVideo(upload.name, probe, rules);
    return findings.filter((finding) => finding.severity === 'error').map((finding) => finding.message);
  });
}

/** Whether `path` is a regular file (not a link) holding `bytes`. */
async function sameRegularFile(path: string, bytes: Buffer): Promise<boolean> {
  const stats = await lstat(path).catch(() => null);
  if (stats === null || !stats.isFile() || stats.size !== bytes.length) return false;
  return (await readFile(path)).equals(bytes);
}
