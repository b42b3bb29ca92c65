import type { PostFileReading } from '../content/interpret-file.js';
import { mediaPartOf, type PostFacts } from '../content/post-summary.js';
import type { ReadingStore } from '../content/read-file.js';
import type { CacheSection } from './cache-section.js';
import { sameStamp, settledStamp, type FileStamp } from './file-stamps.js';

/** One post file's entry in the `readings` section. */
export interface KeptEntry {
  /** Digest of the file's bytes. */
  digest: string;
  /** The file's stamp when its bytes were read, once settled (see StampedFacts). */
  stamp?: FileStamp;
  reading: PostFileReading;
  /** Facts about the post made from these bytes and the media whose hashes `media` names (its fingerprint after the digest). */
  facts?: { media: string } & PostFacts;
}

/** The ReadingStore backed by a `readings` cache section (keyed by project-relative file). */
export function readingStore(section: CacheSection<KeptEntry>): ReadingStore {
  return {
    byStamp: (file, stats) => {
      const entry = section.get(file);
      return entry?.stamp !== undefined && sameStamp(entry.stamp, stats) ? { digest: entry.digest, reading: entry.reading } : undefined;
    },
    get: (file, digest) => {
      const entry = section.get(file);
      return entry?.digest === digest ? entry.reading : undefined;
    },
    set: (file, digest, reading, read) => {
      const stamp = read === undefined ? undefined : settledStamp(read.stats, read.readAt);
      const earlier = section.get(file);
      const facts = earlier?.digest === digest ? earlier.facts : undefined;
      section.set(file, { digest, ...(stamp === undefined ? {} : { stamp }), reading, ...(facts === undefined ? {} : { facts }) });
    },
    restamp: (file, digest, read) => {
      const entry = section.get(file);
      if (entry?.digest !== digest) return;
      const stamp = settledStamp(read.stats, read.readAt);
      if (stamp === undefined ? entry.stamp === undefined : entry.stamp !== undefined && sameStamp(entry.stamp, stamp)) return;
      const { digest: same, reading, facts } = entry;
      section.set(file, { digest: same, ...(stamp === undefined ? {} : { stamp }), reading, ...(facts === undefined ? {} : { facts }) });
    },
    facts: (file, fingerprint) => {
      const entry = section.get(file);
      if (entry?.facts === undefined) return undefined;
      return mediaPartOf(fingerprint, entry.digest) === entry.facts.media ? entry.facts : undefined;
    },
    addFacts: (file, fingerprint, facts) => {
      const entry = section.get(file);
      const media = entry === undefined ? undefined : mediaPartOf(fingerprint, entry.digest);
      // Facts belong to the reading they were made from.
      if (entry === undefined || media === undefined) return;
      const earlier = entry.facts?.media === media ? entry.facts : { media };
      section.set(file, { ...entry, facts: { ...earlier, ...facts } });
    },
  };
}
