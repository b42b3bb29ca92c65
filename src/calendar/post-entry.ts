import type { OptionsInput, Post } from '../api/types.js';
import type { DesiredMedia, DesiredPost } from '../content/types.js';
import type { Diagnostic } from '../diagnostics.js';
import type { Change } from '../plan/types.js';
import { cutCaption } from './caption-cut.js';
import type { CalendarAccount, CalendarMedia, CalendarPost, CalendarTarget } from './model.js';
import { changeOf, overlayOf } from './overlay.js';
import type { Placer } from './zone-placer.js';

/** What a media file shows as: where its thumbnail is, and what a probe found. */
export interface MediaView {
  src: string | null;
  width?: number;
  height?: number;
  durationSeconds?: number;
}

/** Shared by every entry of one model. */
export interface EntryContext {
  /** Places instants in the project's time zone. */
  place: Placer;
  accounts: ReadonlyMap<string, CalendarAccount>;
  /** The thumbnail and facts of a file of the project. */
  mediaView: (media: DesiredMedia) => MediaView;
}

/** An option's value as the preview shows it. */
function optionText(value: unknown): string {
  if (Array.isArray(value)) return value.map(String).join(', ');
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return String(value);
}

function optionsOf(options: OptionsInput | Record<string, unknown>): CalendarTarget['options'] {
  return Object.entries(options)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => ({ name, value: optionText(value) }));
}

/** The caption's preview; `shown` is left out when it is the post's text whole. */
function previewOf(text: string, postText: string, account: CalendarAccount | undefined): Pick<CalendarTarget, 'shown' | 'overflow' | 'length'> {
  const { shown, overflow, length } = cutCaption(text, account?.unit ?? 'characters', account?.maxLength ?? null);
  return shown === postText ? { overflow, length } : { shown, overflow, length };
}

function errorsIn(diagnostics: readonly Diagnostic[]): number {
  return diagnostics.filter((d) => d.severity === 'error').length;
}

/** A post of the files, with its remote post (statuses) when there is one, and its plan change. */
export function desiredEntry(post: DesiredPost, context: EntryContext, extra: { change?: Change; live?: Post; status: string | null; diagnostics: Diagnostic[] }): CalendarPost {
  const { shape } = post;
  const liveTargets = extra.live === undefined ? undefined : new Map(extra.live.targets.map((target) => [target.socialAccountId, target]));
  const targets = shape.targets.map((target, index): CalendarTarget => {
    const account = context.accounts.get(target.socialAccountId);
    const live = liveTargets?.get(target.socialAccountId);
    return {
      account: target.socialAccountId,
      label: post.targetLabels[index] ?? account?.label ?? target.socialAccountId,
      status: live?.status ?? null,
      ...(live?.error === undefined ? {} : { error: live.error }),
      override: target.contentOverride !== undefined,
      ...previewOf(target.contentOverride ?? shape.content, shape.content, account),
      options: optionsOf(target.options),
    };
  });
  const media = post.media.map((file): CalendarMedia => ({
    kind: file.kind,
    path: file.path,
    ...context.mediaView(file),
    ...(file.alt === undefined ? {} : { alt: file.alt }),
    sizeBytes: file.sizeBytes,
  }));
  const { overlay, previous } = overlayOf(extra.change, context.place);
  // A post the plan unschedules is shown as the files have it: in the tray, with the slot it leaves.
  const slot = context.place(shape.scheduledAt);
  const errors = errorsIn(extra.diagnostics);
  return {
    key: post.key,
    file: post.file,
    slot,
    previous,
    draft: slot === null,
    ready: slot === null && errors === 0 && targets.length > 0,
    status: extra.status,
    overlay,
    change: changeOf(extra.change, context.place),
    text: shape.content,
    targets,
    media,
    diagnostics: extra.diagnostics,
    errors,
  };
}

/**
 * A post the plan names that has no post in the files (its file was removed, or has errors): it
 * is shown as the remote has it, where the remote has it.
 */
export function remoteEntry(change: Change, live: Post | undefined, context: EntryContext, diagnostics: Diagnostic[]): CalendarPost {
  const targets = (live?.targets ?? []).map((target): CalendarTarget => {
    const account = context.accounts.get(target.socialAccountId);
    return {
      account: target.socialAccountId,
      label: account?.label ?? target.handle ?? target.socialAccountId,
      status: target.status ?? null,
      ...(target.error === undefined ? {} : { error: target.error }),
      override: target.contentOverride !== undefined,
      ...previewOf(target.contentOverride ?? live?.content ?? '', live?.content ?? '', account),
      options: optionsOf(target.options ?? {}),
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
    text: live?.content ?? '',
    targets,
    media: (live?.media ?? []).map((media) => ({ kind: String(media.kind), path: media.id, src: null, ...(media.durationSeconds === undefined ? {} : { durationSeconds: media.durationSeconds }) })),
    diagnostics,
    errors: errorsIn(diagnostics),
  };
}
