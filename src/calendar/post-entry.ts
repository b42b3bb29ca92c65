import { draftReadiness } from '../content/readiness.js';
import type { Post } from '../api/types.js';
import type { Diagnostic } from '../diagnostics.js';
import type { Change } from '../plan/types.js';
import type { CalendarAccount, CalendarPost, ContentTarget, Slot, CalendarTargetStatus } from './model.js';
import { changeOf, overlayOf } from './overlay.js';
import { captionPreview, optionsShown, thumbnailSrc, type CardMedia, type PostCard } from './post-card.js';
import type { Placer } from './zone-placer.js';

/** Shared by every entry of one model. */
export interface EntryContext {
  /** Places instants in the project's time zone. */
  place: Placer;
  accounts: ReadonlyMap<string, CalendarAccount>;
  /** Each account's label by id: the change's reasons name an account's own fields by it. */
  accountNames: ReadonlyMap<string, string>;
  /** Where the page finds the thumbnails (`media/`, `/media/`). */
  mediaPrefix: string;
  /** The remote's poster frames of videos, by sha256. */
  posters: ReadonlyMap<string, string>;
}

function errorsIn(diagnostics: readonly Diagnostic[]): number {
  return diagnostics.filter((d) => d.severity === 'error').length;
}

function pictureOf(media: CardMedia, context: EntryContext): string | null {
  return 'thumbnail' in media ? thumbnailSrc(context.mediaPrefix, media) : (context.posters.get(media.video) ?? null);
}

function statusOf(target: Post['targets'][number] | undefined): CalendarTargetStatus {
  const status = target?.status ?? null;
  return target?.error === undefined ? { status } : { status, error: target.error };
}

/** A post of the files (its card), with its remote post (statuses) when there is one, and its plan change. */
export function desiredEntry(card: PostCard, context: EntryContext, extra: { change?: Change; live?: Post; status: string | null; diagnostics: Diagnostic[] }): CalendarPost {
  const liveTargets = extra.live?.targets;
  const { overlay, previous: leaves } = overlayOf(extra.change, context.place);
  const previous = overlay === 'blocked' ? keptSlot(card, extra.live, context.place) : leaves;
  // A post the plan unschedules is shown as the files have it: in the tray, with the slot it leaves.
  const errors = errorsIn(extra.diagnostics);
  return {
    key: card.key,
    file: card.file,
    slot: card.slot,
    previous,
    ...(card.pencilled === null || card.slot !== null ? {} : { pencilled: card.pencilled }),
    draft: card.slot === null,
    ready: card.slot === null && draftReadiness({ diagnostics: extra.diagnostics }).ready,
    status: extra.status,
    overlay,
    change: changeOf(extra.change, context),
    diagnostics: extra.diagnostics,
    errors,
    text: card.content.text,
    targets: card.content.targets.map((target) => ({ ...target, ...statusOf(liveTargets?.find((live) => live.socialAccountId === target.account)) })),
    media: card.content.media.map((media, index) => ({ ...media, src: pictureOf(card.media[index]!, context) })),
  };
}

/**
 * Where a blocked post still publishes when the file names another time (a house rule holds the
 * new one): the remote post's slot, shown as a ghost, so the day it really goes out is not left
 * empty on the page. Null when the remote has it at the file's time, or has no time for it.
 */
function keptSlot(card: PostCard, live: Post | undefined, place: Placer): Slot | null {
  const kept = place(live?.scheduledAt ?? null);
  return kept === null || kept.at === card.slot?.at ? null : kept;
}

/**
 * A post the plan names that has no post in the files (its file was removed, or has errors): it
 * is shown as the remote has it, where the remote has it.
 */
export function remoteEntry(change: Change, live: Post | undefined, context: EntryContext, diagnostics: Diagnostic[]): CalendarPost {
  const text = live?.content ?? '';
  const liveTargets = live?.targets ?? [];
  const targets = liveTargets.map((target): ContentTarget => {
    const account = context.accounts.get(target.socialAccountId);
    return {
      account: target.socialAccountId,
      label: account?.label ?? target.handle ?? target.socialAccountId,
      override: target.contentOverride !== undefined,
      ...captionPreview(target.contentOverride ?? text, text, account),
      options: optionsShown(target.options ?? {}),
    };
  });
  const media = (live?.media ?? []).map((file) => ({ kind: String(file.kind), path: file.id, remote: true as const, ...(file.durationSeconds === undefined ? {} : { durationSeconds: file.durationSeconds }) }));
  const { overlay, previous } = overlayOf(change, context.place);
  // A post going back to draft leaves its slot: it shows there as the slot it leaves.
  const slot = overlay === 'unscheduled' ? null : context.place(live?.scheduledAt ?? null);
  return {
    key: change.key,
    file: change.file,
    slot,
    previous,
    draft: slot === null,
    ready: false,
    status: live?.status ?? null,
    overlay,
    change: changeOf(change, context),
    diagnostics,
    errors: errorsIn(diagnostics),
    text,
    targets: targets.map((target, index) => ({ ...target, ...statusOf(liveTargets[index]) })),
    media: media.map((file) => ({ ...file, src: null })),
  };
}
