import { formatBytes } from '../media/format.js';
import type { MediaDelta } from '../plan/media-changes.js';
import type { MediaFile } from '../plan/types.js';

/** A piece of a media change's words: our words and the remote's (text), or a file's path, which each medium names by its own rule. */
export type MediaWord = string | { path: string };

/**
 * A media change in words, the same in every medium: the medium writes each piece by its rule
 * (terminal, Markdown), a text piece escaped as untrusted (it may hold a remote media id). A file
 * the files do not name is told by its size and the start of its hash.
 */
export function mediaDeltaWords(delta: MediaDelta): MediaWord[] {
  const file = (media: MediaFile): MediaWord[] => {
    const size = media.sizeBytes === undefined ? '' : formatBytes(media.sizeBytes);
    if (media.path !== undefined) return [{ path: media.path }, size === '' ? '' : ` (${size})`];
    const bytes = media.sha256.startsWith('id:') ? `remote media ${media.sha256.slice(3)}` : `sha256 ${media.sha256.slice(0, 12)}…`;
    return [`a file${size === '' ? '' : ` of ${size}`} (${bytes})`];
  };
  switch (delta.kind) {
    case 'added':
      return ['added ', ...file(delta.file), ` as no. ${delta.position}`];
    case 'removed':
      return ['removed ', ...file(delta.file), `, no. ${delta.position}`];
    case 'replaced': {
      const was = delta.before.sizeBytes === undefined ? '' : `, was ${formatBytes(delta.before.sizeBytes)}`;
      return [`replaced no. ${delta.position}: new bytes `, ...file(delta.after), was];
    }
    case 'reordered':
      return ['reordered: ', ...delta.files.flatMap((media, index) => [...(index === 0 ? [] : [', ']), ...file(media)])];
  }
}
