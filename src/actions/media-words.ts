import { formatBytes } from '../media/format.js';
import type { MediaDelta } from '../plan/media-changes.js';
import type { MediaFile } from '../plan/types.js';

/**
 * A media change in words, the same in every medium: `name` writes a file's path by the medium's
 * rule (terminal, Markdown). A file the files do not name is told by its size and the start of its hash.
 */
export function mediaDeltaWords(delta: MediaDelta, name: (path: string) => string): string {
  const file = (media: MediaFile) => {
    const size = media.sizeBytes === undefined ? '' : formatBytes(media.sizeBytes);
    if (media.path !== undefined) return `${name(media.path)}${size === '' ? '' : ` (${size})`}`;
    const bytes = media.sha256.startsWith('id:') ? `remote media ${media.sha256.slice(3)}` : `sha256 ${media.sha256.slice(0, 12)}…`;
    return `a file${size === '' ? '' : ` of ${size}`} (${bytes})`;
  };
  switch (delta.kind) {
    case 'added':
      return `added ${file(delta.file)} as no. ${delta.position}`;
    case 'removed':
      return `removed ${file(delta.file)}, no. ${delta.position}`;
    case 'replaced': {
      const was = delta.before.sizeBytes === undefined ? '' : `, was ${formatBytes(delta.before.sizeBytes)}`;
      return `replaced no. ${delta.position}: new bytes ${file(delta.after)}${was}`;
    }
    case 'reordered':
      return `reordered: ${delta.files.map(file).join(', ')}`;
  }
}
