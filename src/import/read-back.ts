import type { Diagnostic } from '../diagnostics.js';
import type { MediaMemo } from '../content/media-memo.js';
import { readPostFromBytes, type ContentConfig } from '../content/read-file.js';
import type { DesiredPost } from '../content/types.js';

export interface ReadBackContext {
  config: ContentConfig;
  now: Date;
  media: MediaMemo;
}

/**
 * Reads a post file's text, not yet written, exactly as `plan` will read it once it is on disk
 * (parse, schema, normalize, media), so an import can prove that the file reproduces the remote
 * post before writing anything. The post will be owned once imported, so a past `scheduledAt`
 * is accepted, as `plan` accepts it for owned posts.
 */
export async function readBack(file: string, text: string, context: ReadBackContext): Promise<{ post: DesiredPost | null; diagnostics: Diagnostic[] }> {
  const { posts, diagnostics } = await readPostFromBytes(file, Buffer.from(text, 'utf8'), { ...context, acceptPastSchedule: () => true });
  return { post: posts[0] ?? null, diagnostics };
}
