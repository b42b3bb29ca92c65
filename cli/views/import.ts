import type { Post } from '../../src/api/types.js';
import type { ImportResult } from '../../src/import/import-posts.js';
import type { RemoteProject } from '../../src/plan/types.js';
import { compareText } from '../../src/text/ordering.js';
import { previewText } from '../../src/text/preview.js';
import { plural } from './format.js';
import type { Style } from './style.js';
import { joinTerminal, term, terminalPath, type Terminal } from '../../src/text/terminal.js';

/** `post 1a2b3c4d (scheduled, "First words of the text…")`: enough to find it in the service. */
function describePost(post: Post): Terminal {
  const text = post.content.replace(/\s+/g, ' ').trim();
  const preview = previewText(text, 40);
  return term`post ${post.id} (${post.status}${preview ? `, "${preview}"` : ''})`;
}

function countByStatus(posts: readonly Post[]): string {
  const counts = new Map<string, number>();
  for (const post of posts) counts.set(post.status, (counts.get(post.status) ?? 0) + 1);
  return [...counts].map(([status, count]) => `${count} ${status}`).join(', ');
}

/** Human report of an import (or of a dry run, which also shows each file's text). */
export function renderImport(result: ImportResult, options: { label: string; style: Style; dryRun: boolean; statePath: string }): Terminal {
  const { style, dryRun } = options;
  const { plan, outcome } = result;
  const out = [term`${options.label}`, term``];
  const failedKeys = new Set(outcome.failed.map((failure) => failure.item.key));
  for (const item of plan.items) {
    if (failedKeys.has(item.key)) continue;
    const verb = item.fileExists ? (dryRun ? 'would record the existing file' : 'recorded the existing file') : dryRun ? 'would write' : 'wrote';
    out.push(term`  ${style.green(term`+`)} ${verb} ${style.bold(terminalPath(item.file))}`, style.dim(term`      ${describePost(item.post)}`));
    for (const media of item.downloaded) out.push(style.dim(term`      media ${media.created ? 'downloaded to' : 'already in the project as'} ${terminalPath(media.file)}`));
    if (dryRun && !item.fileExists) out.push(...item.text.trimEnd().split('\n').map((line) => style.dim(term`      ${line}`)));
  }
  for (const failure of outcome.failed) out.push(style.red(term`  ✗ ${terminalPath(failure.item.file)}: ${failure.error.message}`));
  for (const skipped of plan.skipped) out.push(term`  ${style.yellow(term`!`)} skipped ${describePost(skipped.post)}:\n      ${skipped.reason}`);
  for (const { post, media } of plan.toDownload) {
    out.push(term`  ${style.green(term`+`)} would download ${plural(media.length, 'media file')} into media/imported/ and import ${describePost(post)}`, style.dim(term`      (its file is written and checked once the media are downloaded)`));
  }
  for (const pending of plan.pending) out.push(term`  ${style.yellow(term`!`)} skipped ${describePost(pending.post)}:\n      it is the result of an interrupted create of \`${pending.key}\`; \`postsync apply\` confirms it`);
  if (out.length === 2) out.push(term`  Nothing to import.`);

  out.push(term``);
  const count = plan.items.length - outcome.failed.length;
  if (dryRun) out.push(term`Dry run: ${plural(plan.items.length + plan.toDownload.length, 'post')} would be imported${plan.toDownload.length > 0 ? ` (${plan.toDownload.length} after downloading ${plan.toDownload.length === 1 ? 'its' : 'their'} media)` : ''}. Nothing was written.`);
  else if (count > 0) out.push(term`Imported ${plural(count, 'post')}: files written and recorded in ${options.statePath}. \`postsync plan\` shows ${count === 1 ? 'it' : 'them'} unchanged.`);
  else out.push(term`No post was imported.`);
  if (plan.skipped.length > 0) out.push(term`${plural(plan.skipped.length, 'post')} skipped (reasons above).`);
  if (plan.filteredOut.length > 0) {
    out.push(term`${plural(plan.filteredOut.length, 'post')} not selected (${countByStatus(plan.filteredOut)}); draft and scheduled posts are imported by default, --all imports every status.`);
  }
  if (plan.managed > 0) out.push(style.dim(term`${plural(plan.managed, 'remote post')} already managed by postsync.`));
  for (const [folder, count] of countByFolder(plan.otherCalendars)) out.push(style.dim(term`${plural(count, 'remote post')} managed by the calendar in ${terminalPath(folder)} of this repository: not imported here.`));
  return joinTerminal(out, '\n');
}

/** The one JSON document of `import --json`. */
export function importReport(result: ImportResult, options: { target: RemoteProject; dryRun: boolean }) {
  const { plan, outcome } = result;
  const failed = new Map(outcome.failed.map((failure) => [failure.item.key, failure.error.message]));
  return {
    formatVersion: 1 as const,
    command: 'import' as const,
    target: options.target,
    dryRun: options.dryRun,
    imported: plan.items
      .filter((item) => !failed.has(item.key))
      .map((item) => ({
        postId: item.post.id,
        status: item.post.status,
        key: item.key,
        file: item.file,
        existingFile: item.fileExists,
        downloadedMedia: item.downloaded.map((media) => ({ mediaId: media.mediaId, sha256: media.sha256, file: media.file, created: media.created })),
        ...(options.dryRun ? { text: item.text } : {}),
      })),
    toDownload: plan.toDownload.map(({ post, media }) => ({ postId: post.id, status: post.status, media: media.map((item) => ({ mediaId: item.id, url: item.url })) })),
    failed: plan.items.filter((item) => failed.has(item.key)).map((item) => ({ postId: item.post.id, key: item.key, file: item.file, message: failed.get(item.key)! })),
    skipped: [
      ...plan.skipped.map((skipped) => ({ postId: skipped.post.id, status: skipped.post.status, reason: skipped.reason })),
      ...plan.pending.map((pending) => ({ postId: pending.post.id, status: pending.post.status, reason: `result of an interrupted create of ${pending.key}; postsync apply confirms it`, pendingKey: pending.key })),
    ],
    notSelected: plan.filteredOut.map((post) => ({ postId: post.id, status: post.status })),
    managed: plan.managed,
    otherCalendars: plan.otherCalendars.map(({ post, folder }) => ({ postId: post.id, status: post.status, calendar: folder })),
  };
}

/** How many posts each other calendar records, by folder, in folder order. */
function countByFolder(posts: readonly { folder: string }[]): [string, number][] {
  const counts = new Map<string, number>();
  for (const { folder } of posts) counts.set(folder, (counts.get(folder) ?? 0) + 1);
  return [...counts].sort(([a], [b]) => compareText(a, b));
}
