import type { Diagnostic } from '../diagnostics.js';
import { curlyQuoteWarnings } from './curly-quotes.js';
import { normalizePost, type ScheduleSource, type SlotSource } from './normalize-post.js';
import { sortDiagnostics } from '../text/ordering.js';
import { parsePostFile } from './parse.js';
import { checkFrontMatter } from './schema.js';
import type { SourcePosition, TargetKeys, TargetShape } from './types.js';
import type { YamlSource } from '../text/yaml-source.js';

/** What a post file's bytes say on their own, with the config: no clock, no other file. */
export interface PostFileReading {
  /** The post's key, also when the file has other errors; null when it cannot be known. */
  key: string | null;
  /** Position of `id:` when the key comes from it. */
  keyPosition?: SourcePosition;
  /** Problems in the text itself, sorted; media and the clock are checked on every read. */
  diagnostics: Diagnostic[];
  /** The parts of the post the text fixes; absent when the front-matter cannot be read at all. */
  text?: PostText;
}

export interface PostText {
  content: string;
  scheduledAt: string | null;
  /** Set when `scheduledAt` is: the "in the past" check runs on every read. */
  schedule?: ScheduleSource;
  /** Set for `scheduledAt: next-slot`: the time is chosen when planning. */
  slot?: SlotSource;
  /** A draft's pencilled time (NormalizedPost). */
  pencilledAt?: string;
  /** Sorted by socialAccountId. */
  targets: TargetShape[];
  /** Parallel to `targets`: the alias or id as written, and where. */
  targetLabels: string[];
  targetPositions: (SourcePosition | null)[];
  /** Parallel to `targets`: the index of each one's entry under `targets:` as written. */
  targetEntries: number[];
  /** Parallel to `targets`: where each one's own keys are written. */
  targetKeys: TargetKeys[];
  /** First line of the post text. */
  body: SourcePosition;
  /** Where `content` (the trimmed body) starts in the file: templates in it point there. */
  contentStart: SourcePosition;
  /** The front-matter as written (`repeat:`, `variants:`, `occurrences:` are read from it). */
  frontMatter: Record<string, unknown>;
  /** `media:` as written; the paths are resolved against the disk on every read. */
  media: unknown;
}

export interface InterpretContext {
  /** Project-relative path, forward slashes. */
  file: string;
  /** Path relative to the content folder, forward slashes. */
  fileInContent: string;
  timezone: string;
  accounts: Readonly<Record<string, string>>;
}

/** A post file's reading, and where its front-matter's values are. */
export interface InterpretedFile {
  reading: PostFileReading;
  locate: YamlSource['locate'];
}

/**
 * Parses, validates and normalizes one post file's bytes. `locate` answers positions in the
 * front-matter for the checks that come after (media paths). This module pulls in the YAML parser
 * and the schema validator, so readers load it only when a file has no usable cached reading.
 */
export function interpretPostFile(bytes: Uint8Array, context: InterpretContext): InterpretedFile {
  const { file } = context;
  const parsed = parsePostFile(file, bytes);
  if (parsed.frontMatter === undefined) return { reading: { key: null, diagnostics: parsed.diagnostics }, locate: parsed.locate };
  const schemaDiagnostics = checkFrontMatter(parsed.frontMatter, file, parsed.locate);
  const normalized = normalizePost(parsed.frontMatter, parsed.body, parsed.bodyLine, { ...context, locate: parsed.locate });
  const frontMatter = isRecord(parsed.frontMatter) ? parsed.frontMatter : {};
  const text: PostText = {
    content: normalized.content,
    scheduledAt: normalized.scheduledAt,
    ...(normalized.schedule === undefined ? {} : { schedule: normalized.schedule }),
    ...(normalized.slot === undefined ? {} : { slot: normalized.slot }),
    ...(normalized.pencilledAt === undefined ? {} : { pencilledAt: normalized.pencilledAt }),
    targets: normalized.targets.targets,
    targetLabels: normalized.targets.labels,
    targetPositions: normalized.targets.positions,
    targetEntries: normalized.targets.entries,
    targetKeys: normalized.targets.keys,
    body: { line: parsed.bodyLine, column: 1 },
    contentStart: { line: parsed.bodyLine, column: 1 + leadingOnFirstLine(parsed.body) },
    frontMatter,
    media: frontMatter.media,
  };
  const reading: PostFileReading = {
    key: normalized.key,
    ...(normalized.keyPosition === undefined ? {} : { keyPosition: normalized.keyPosition }),
    diagnostics: sortDiagnostics([...parsed.diagnostics, ...schemaDiagnostics, ...normalized.diagnostics, ...curlyQuoteWarnings(parsed.frontMatter, file, parsed.locate)]),
    text,
  };
  return { reading, locate: parsed.locate };
}

/** Spaces before the text on its first non-blank line (the body is trimmed). */
function leadingOnFirstLine(body: string): number {
  const leading = /^\s*/.exec(body)![0];
  return leading.length - (leading.lastIndexOf('\n') + 1);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
