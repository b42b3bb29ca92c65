import type { Media } from '../api/types.js';
import { downloadProblem } from '../api/media-source.js';
import { downloadMedia, removeDownloads, type DownloadedMedia } from './download-media.js';
import { placeDownloadedMedia, removeUnusedMedia, type PlacedMedia } from './place-media.js';

/**
 * What became of a remote media that this project's state does not know (it was not uploaded
 * from the project's files): downloaded into the project, not offered by the service, or, on a
 * dry run, offered but not downloaded.
 */
export type ForeignMedia = { kind: 'placed'; placed: PlacedMedia } | { kind: 'unavailable'; reason: string } | { kind: 'downloadable' };

/** Brings the given remote media into the project, by media id. */
export type FetchForeignMedia = (media: readonly Media[]) => Promise<ReadonlyMap<string, ForeignMedia>>;

/** A dry run's answer: which media could be downloaded, without downloading anything. */
export const describeForeignMedia: FetchForeignMedia = async (media) =>
  new Map(
    media.map((item): [string, ForeignMedia] => {
      const reason = downloadProblem(item);
      return [item.id, reason === undefined ? { kind: 'downloadable' } : { kind: 'unavailable', reason }];
    }),
  );

/**
 * The real thing: downloads into a temporary folder under `tempParent` (inside the project), then
 * places each file under media/imported/ (or reuses a project file with the same bytes). Call
 * `finish` with the files the imported posts use: it removes the downloads and any placed file
 * nothing uses (a post skipped after all), so an import leaves no stray media behind.
 */
export function mediaDownloader(context: { root: string; tempParent: string; now: Date }): { fetch: FetchForeignMedia; finish(used: ReadonlySet<string>): Promise<void> } {
  const placedAll: PlacedMedia[] = [];
  const tempDirs: string[] = [];
  return {
    async fetch(media) {
      const { outcomes, tempDir } = await downloadMedia(media, { tempParent: context.tempParent, root: context.root });
      tempDirs.push(tempDir);
      const downloaded: DownloadedMedia[] = [];
      const result = new Map<string, ForeignMedia>();
      for (const [id, outcome] of outcomes) {
        if (outcome.kind === 'failed') result.set(id, { kind: 'unavailable', reason: outcome.reason });
        else downloaded.push(outcome.file);
      }
      const placed = await placeDownloadedMedia(downloaded, context);
      for (const [id, where] of placed) {
        placedAll.push(where);
        result.set(id, { kind: 'placed', placed: where });
      }
      return result;
    },
    async finish(used) {
      await removeUnusedMedia(placedAll, used, context.root);
      for (const dir of tempDirs) await removeDownloads(dir);
    },
  };
}
