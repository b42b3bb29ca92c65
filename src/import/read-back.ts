import { resolve } from 'node:path';
import { hasErrors, type Diagnostic } from '../diagnostics.js';
import type { MediaCache, MediaProbe } from '../content/media-cache.js';
import { resolveMedia } from '../content/media-paths.js';
import { normalizePost } from '../content/normalize.js';
import { parsePostFile } from '../content/parse.js';
import { relativePosix } from '../content/paths.js';
import type { ContentConfig } from '../content/read-file.js';
import { checkFrontMatter } from '../content/schema.js';
import type { DesiredPost } from '../content/types.js';

export interface ReadBackContext {
  config: ContentConfig;
  now: Date;
  probe: MediaProbe;
  mediaCache: MediaCache;
}

/**
 * Reads a post file's text, not yet written, exactly as `plan` will read it once it is on disk
 * (parse, schema, normalize, media), so an import can prove that the file reproduces the remote
 * post before writing anything. The post will be owned once imported, so a past `scheduledAt`
 * is accepted, as `plan` accepts it for owned posts.
 */
export async function readBack(file: string, text: string, context: ReadBackContext): Promise<{ post: DesiredPost | null; diagnostics: Diagnostic[] }> {
  const { config } = context;
  const parsed = parsePostFile(file, Buffer.from(text, 'utf8'));
  if (parsed.frontMatter === undefined) return { post: null, diagnostics: parsed.diagnostics };
  const normalized = normalizePost(parsed.frontMatter, parsed.body, parsed.bodyLine, {
    file,
    fileInContent: relativePosix(config.contentDir, resolve(config.root, file)),
    locate: parsed.locate,
    timezone: config.timezone,
    accounts: config.accounts,
    now: context.now,
    acceptPastSchedule: () => true,
  });
  const media = await resolveMedia((parsed.frontMatter as Record<string, unknown>).media, {
    root: config.root,
    file,
    locate: parsed.locate,
    probe: context.probe,
    cache: context.mediaCache,
  });
  const diagnostics = [...parsed.diagnostics, ...checkFrontMatter(parsed.frontMatter, file, parsed.locate), ...normalized.diagnostics, ...media.diagnostics];
  if (hasErrors(diagnostics)) return { post: null, diagnostics };
  return {
    post: {
      key: normalized.key,
      file,
      shape: { content: normalized.content, scheduledAt: normalized.scheduledAt, targets: normalized.targets.targets, media: media.media.map((item) => item.sha256) },
      media: media.media,
      targetLabels: normalized.targets.labels,
      locations: { targets: normalized.targets.positions, media: media.positions, body: { line: parsed.bodyLine, column: 1 } },
    },
    diagnostics,
  };
}
