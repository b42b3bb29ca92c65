import { link, mkdir, unlink } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { relativePosix } from '../text/paths.js';
import { PostsyncError } from '../errors.js';
import { guardWrite } from '../write-guard/guard-write.js';
import type { MediaRecord } from '../state/types.js';
import type { DownloadedMedia } from './download-media.js';
import { locateMediaFiles } from './media-files.js';

/** Where imported media go, from the project root. */
export const IMPORTED_MEDIA_DIR = 'media/imported';

/** Names tried per media before giving up (the original name, then with its hash, then numbered). */
const MAX_NAME_ATTEMPTS = 20;

/** By content type: the extension a new name gets, then the others a kept name may have. */
const EXTENSIONS: Readonly<Record<string, readonly string[]>> = {
  'image/jpeg': ['.jpg', '.jpeg'],
  'image/png': ['.png'],
  'image/webp': ['.webp'],
  'image/gif': ['.gif'],
  'video/mp4': ['.mp4', '.m4v'],
  'video/quicktime': ['.mov', '.qt'],
  'video/webm': ['.webm'],
};

/** A downloaded media, now a project file. */
export interface PlacedMedia {
  mediaId: string;
  sha256: string;
  /** Project-relative path, forward slashes. */
  file: string;
  /** False when a project file already had these bytes (this import wrote nothing for it). */
  created: boolean;
  /** The state record that makes postsync know this media by content from now on. */
  record: MediaRecord;
}

/**
 * The original file name from the URL's last segment, reduced to letters, digits, `.`, `_` and
 * `-` (never a path, never hidden), with the extension of its content type when it has another
 * one. Without a usable name: the first 16 hex digits of its sha256.
 */
export function importedMediaName(file: DownloadedMedia): string {
  let last = '';
  try {
    last = decodeURIComponent(new URL(file.media.url).pathname.split('/').pop() ?? '');
  } catch {
    last = '';
  }
  const cleaned = last.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/-{2,}/g, '-').replace(/^[-.]+/, '').slice(-100);
  const name = cleaned === '' ? file.sha256.slice(0, 16) : cleaned;
  const extensions = EXTENSIONS[file.media.contentType.toLowerCase()];
  const extension = posix.extname(name);
  if (extensions === undefined || extensions.includes(extension.toLowerCase())) return name;
  return `${name.slice(0, name.length - extension.length) || file.sha256.slice(0, 16)}${extensions[0]}`;
}

function candidates(name: string, sha256: string): string[] {
  const extension = posix.extname(name);
  const stem = name.slice(0, name.length - extension.length);
  const hashed = `${stem}-${sha256.slice(0, 8)}`;
  return [name, `${hashed}${extension}`, ...Array.from({ length: MAX_NAME_ATTEMPTS - 2 }, (_, index) => `${hashed}-${index + 2}${extension}`)];
}

/**
 * Makes each downloaded media a project file: a file that already has the same bytes is used as
 * it is; otherwise the download is hard-linked to a free name under media/imported/ (an existing
 * file is never overwritten, and the folder must resolve inside the project). Files with the
 * same bytes become one file. Returns the placement of each media by id.
 */
export async function placeDownloadedMedia(downloads: readonly DownloadedMedia[], context: { root: string; now: Date }): Promise<Map<string, PlacedMedia>> {
  const placed = new Map<string, PlacedMedia>();
  if (downloads.length === 0) return placed;
  const existing = await locateMediaFiles(context.root, new Map(downloads.map((file) => [file.sha256, { sizeBytes: file.sizeBytes }])));
  const folder = join(context.root, IMPORTED_MEDIA_DIR);
  // Checked before anything is made, so a `media` link to elsewhere never gets a folder there; a
  // name is then taken with link(), which never follows a link at it (EEXIST).
  await guardWrite(join(folder, 'media'), { root: context.root });
  await mkdir(folder, { recursive: true });
  const bySha = new Map<string, { file: string; created: boolean }>();
  for (const download of downloads) {
    let where = bySha.get(download.sha256) ?? (existing.has(download.sha256) ? { file: existing.get(download.sha256)!, created: false } : undefined);
    if (where === undefined) {
      const name = await linkFreeName(download, folder);
      where = { file: relativePosix(context.root, join(folder, name)), created: true };
    }
    bySha.set(download.sha256, where);
    placed.set(download.media.id, {
      mediaId: download.media.id,
      sha256: download.sha256,
      file: where.file,
      created: where.created,
      record: { mediaId: download.media.id, sizeBytes: download.sizeBytes, contentType: download.media.contentType, uploadedAt: context.now.toISOString() },
    });
  }
  return placed;
}

async function linkFreeName(download: DownloadedMedia, folder: string): Promise<string> {
  for (const name of candidates(importedMediaName(download), download.sha256)) {
    try {
      await link(download.path, join(folder, name));
      return name;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  throw new PostsyncError(`no free name for media ${download.media.id} in ${IMPORTED_MEDIA_DIR} after ${MAX_NAME_ATTEMPTS} attempts`);
}

/** Removes media files this import created that no imported post ended up using. */
export async function removeUnusedMedia(placed: Iterable<PlacedMedia>, used: ReadonlySet<string>, root: string): Promise<void> {
  const created = new Set([...placed].filter((media) => media.created).map((media) => media.file));
  for (const file of created) if (!used.has(file)) await unlink(join(root, file)).catch(() => undefined);
}
