import type { Post } from '../api/types.js';
import type { Diagnostic } from '../diagnostics.js';
import type { Change } from '../plan/types.js';
import type { CalendarAccount, CalendarMedia, CalendarPost, CalendarTarget } from './model.js';
import { changeOf, overlayOf } from './overlay.js';
import { captionPreview, optionsShown, type CardMedia, type PostCard } from './post-card.js';
import type { Placer } from './zone-placer.js';

/** Shared by every entry of one model. */
export interface EntryContext {
  /** Places instants in the project's time zone. */
  place: Placer;
  accounts: ReadonlyMap<string, CalendarAccount>;
  /** Where the page finds the thumbnails (`media/`, `/media/`). */
  mediaPrefix: string;
  /** The remote's poster frames of videos, by sha256. */
  posters: ReadonlyMap<string, string>;
}

function errorsIn(diagnostics: readonly Diagnostic[]): number {
  return diagnostics.filter((d) => d.severity === 'error').length;
}

function mediaOf(media: CardMedia, context: EntryContext): CalendarMedia {
  const src = media.thumbnail !== null ? `${context.mediaPrefix}${media.thumbnail}` : media.video === undefined ? null : (context.posters.get(media.video) ?? null);
  // Written out rather than spread: the calendar makes one per media file of every post.
  const shown: CalendarMedia = { kind: media.kind, path: media.path, src };
  if (media.alt !== undefined) shown.alt = media.alt;
  if (media.width !== undefined) shown.width = media.width;
  if (media.height !== undefined) shown.height = media.height;
  if (media.durationSeconds !== undefined) shown.durationSeconds = media.durationSeconds;
  if (media.sizeBytes !== undefined) shown.sizeBytes = media.sizeBytes;
  return shown;
}

/** A post of the files (its card), with its remote post (statuses) when there is one, and its plan change. */
export function desiredEntry(card: PostCard, context: EntryContext, extra: { change?: Change; live?: Post; status: string | null; diagnostics: Diagnostic[] }): CalendarPost {
  const liveTargets = extra.live?.targets;
  const targets = card.targets.map((target): CalendarTarget => {
    const live = liveTargets?.find((candidate) => candidate.socialAccountId === target.account);
    return live?.error === undefined ? { ...target, status: live?.status ?? null } : { ...target, status: live.status ?? null, error: live.error };
  });
  const { overlay, previous } = overlayOf(extra.change, context.place);
  // A post the plan unschedules is shown as the files have it: in the tray, with the slot it leaves.
  const errors = errorsIn(extra.diagnostics);
  return {
    key: card.key,
    file: card.file,
    slot: card.slot,
    previous,
    draft: card.slot === null,
    ready: card.slot === null && errors === 0 && targets.length > 0,
    status: extra.status,
    overlay,
    change: changeOf(extra.change, context.place),
    text: card.text,
    targets,
    media: card.media.map((media) => mediaOf(media, context)),
    diagnostics: extra.diagnostics,
    errors,
  };
}

/**
 * A post the plan names that has no post in the files (its file was removed, or has errors): it
 * is shown as the remote has it, where the remote has it.
 */
export function remoteEntry(change: Change, live: Post | undefined, context: EntryContext, diagnostics: Diagnostic[]): CalendarPost {
  const text = live?.content ?? '';
  const targets = (live?.targets ?? []).map((target): CalendarTarget => {
    const account = context.accounts.get(target.socialAccountId);
    return {
      account: target.socialAccountId,
      label: account?.label ?? target.handle ?? target.socialAccountId,
      status: target.status ?? null,
      ...(target.error === undefined ? {} : { error: target.error }),
      override: target.contentOverride !== undefined,
      ...captionPreview(target.contentOverride ?? text, text, account),
      options: optionsShown(target.options ?? {}),
    };
  });
  const slot = context.place(live?.scheduledAt ?? null);
  const { overlay } = overlayOf(change, context.place);
  return {
    key: change.key,
    file: change.file,
    slot,
    previous: null,
    draft: slot === null,
    ready: false,
    status: live?.status ?? null,
    overlay,
    change: changeOf(change, context.place),
    text,
    targets,
    media: (live?.media ?? []).map((media) => ({ kind: String(media.kind), path: media.id, src: null, ...(media.durationSeconds === undefined ? {} : { durationSeconds: media.durationSeconds }) })),
    diagnostics,
    errors: errorsIn(diagnostics),
  };
}
