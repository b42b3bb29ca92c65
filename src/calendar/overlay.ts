import { mediaDeltasOf } from '../plan/media-changes.js';
import { textChangeOf } from '../plan/text-fields.js';
import type { Change } from '../plan/types.js';
import { reasonSentences } from '../plan-words/reason-words.js';
import { wordDiff, wordHunks } from '../text/word-diff.js';
import type { CalendarChange, Overlay, Slot } from './model.js';
import { slotText, type Placer } from './zone-placer.js';

/** How a change shows on the calendar: its style, and the slot a post leaves (moved, unscheduled). */
export interface OverlayOf {
  overlay: Overlay | null;
  previous: Slot | null;
}

/**
 * The calendar's reading of a plan change. An update that changes `scheduledAt` moves the post
 * (both times known), adds it to the calendar (it had none) or unschedules it (it has none now);
 * any other update only changes it. A rename (`move` action) keeps its time.
 */
export function overlayOf(change: Change | undefined, place: Placer): OverlayOf {
  if (change === undefined) return { overlay: null, previous: null };
  switch (change.action) {
    case 'create':
      return { overlay: 'new', previous: null };
    case 'move':
      return { overlay: 'renamed', previous: null };
    case 'delete':
      return { overlay: 'deleted', previous: null };
    case 'unschedule': {
      const before = change.fields?.find((field) => field.field === 'scheduledAt')?.before;
      return { overlay: 'unscheduled', previous: typeof before === 'string' ? place(before) : null };
    }
    case 'blocked':
      return { overlay: 'blocked', previous: null };
    case 'update': {
      const schedule = change.fields?.find((field) => field.field === 'scheduledAt');
      if (schedule === undefined) return { overlay: 'changed', previous: null };
      const before = place(schedule.before as string | null);
      const after = place(schedule.after as string | null);
      if (before === null) return { overlay: 'new', previous: null };
      return { overlay: after === null ? 'unscheduled' : 'moved', previous: before };
    }
    default:
      return { overlay: null, previous: null };
  }
}

const FIELD_TEXT_LIMIT = 160;

/** A field value as a short text: a time in the project's zone, a text cut short, anything else as JSON. */
function valueText(field: string, value: unknown, place: Placer): string {
  if (value === null || value === undefined) return field === 'scheduledAt' ? 'none (draft)' : 'none';
  if (field === 'scheduledAt' && typeof value === 'string') {
    const slot = place(value);
    return slot === null ? value : slotText(slot);
  }
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > FIELD_TEXT_LIMIT ? `${text.slice(0, FIELD_TEXT_LIMIT - 1)}…` : text;
}

/** What the card's details say about its change; null for a post the plan leaves as it is. */
export function changeOf(change: Change | undefined, { place, accountNames }: { place: Placer; accountNames: ReadonlyMap<string, string> }): CalendarChange | null {
  if (change === undefined || change.action === 'noop') return null;
  const fields = (change.fields ?? []).map((field) => ({
    field: field.field,
    before: valueText(field.field, field.before, place),
    after: valueText(field.field, field.after, place),
  }));
  const texts = (change.fields ?? []).flatMap((field) => {
    const text = textChangeOf(field);
    return text === null ? [] : [{ ...(text.account === undefined ? {} : { account: text.account }), hunks: wordHunks(wordDiff(text.before, text.after)) }];
  });
  const media = (change.fields ?? []).flatMap((field) => mediaDeltasOf(field) ?? []);
  return {
    action: change.action,
    reasons: reasonSentences(change, { accounts: accountNames }),
    fields,
    ...(change.fromKey === undefined ? {} : { fromKey: change.fromKey }),
    ...(texts.length === 0 ? {} : { texts }),
    ...(media.length === 0 ? {} : { media }),
  };
}
