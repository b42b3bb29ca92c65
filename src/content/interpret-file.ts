import type { Diagnostic } from '../diagnostics.js';
import { normalizePost, type ScheduleSource } from './normalize-post.js';
import { sortDiagnostics } from '../text/ordering.js';
import { parsePostFile } from './parse.js';
import { checkFrontMatter } from './schema.js';
import type { SourcePosition, TargetShape } from './types.js';
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
  /** Sorted by socialAccountId. */
  targets: TargetShape[];
  /** Parallel to `targets`: the alias or id as written, and where. */
  targetLabels: string[];
  targetPositions: (SourcePosition | null)[];
  /** First line of the post text. */
  body: SourcePosition;
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

/**
 * Parses, validates and normalizes one post file's bytes. `locate` answers positions in the
 * front-matter for the checks that come after (media paths). This module pulls in the YAML parser
 * and the schema validator, so readers load it only when a file has no usable cached reading.
 */
export function interpretPostFile(bytes: Uint8Array, context: InterpretContext): { reading: PostFileReading; locate: YamlSource['locate'] } {
  const { file } = context;
  const parsed = parsePostFile(file, bytes);
  if (parsed.frontMatter === undefined) return { reading: { key: null, diagnostics: parsed.diagnostics }, locate: parsed.locate };
  const schemaDiagnostics = checkFrontMatter(parsed.frontMatter, file, parsed.locate);
  const normalized = normalizePost(parsed.frontMatter, parsed.body, parsed.bodyLine, { ...context, locate: parsed.locate });
  const media = (parsed.frontMatter as Record<string, unknown>).media;
  const text: PostText = {
    content: normalized.content,
    scheduledAt: normalized.scheduledAt,
    ...(normalized.schedule === undefined ? {} : { schedule: normalized.schedule }),
    targets: normalized.targets.targets,
    targetLabels: normalized.targets.labels,
    targetPositions: normalized.targets.positions,
    body: { line: parsed.bodyLine, column: 1 },
    media,
  };
  const reading: PostFileReading = {
    key: normalized.key,
    ...(normalized.keyPosition === undefined ? {} : { keyPosition: normalized.keyPosition }),
    diagnostics: sortDiagnostics([...parsed.diagnostics, ...schemaDiagnostics, ...normalized.diagnostics]),
    text,
  };
  return { reading, locate: parsed.locate };
}
