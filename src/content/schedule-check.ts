import type { Diagnostic } from '../diagnostics.js';
import { timeText } from '../zoned-time/index.js';
import type { ScheduleSource } from './normalize-post.js';

/**
 * Decides whether a scheduledAt in the past is acceptable for this post. Without it every past
 * time is an error; a caller that knows the post was already scheduled or published with exactly
 * this time (from state) can accept it, so old posts do not block every later run.
 */
export type AcceptPastSchedule = (post: { key: string; scheduledAt: string }) => boolean;

/**
 * The one content check that depends on the clock, kept apart from reading so that a reading made
 * earlier (or cached) is checked against this run's `now`. People read its times on the project's
 * clock (`timezone`); `found` is the time as written.
 */
export function checkSchedule(schedule: ScheduleSource, context: { key: string; file: string; now: Date; timezone: string; acceptPastSchedule?: AcceptPastSchedule }): Diagnostic | undefined {
  const { now } = context;
  if (isNotBefore(schedule.instant, now)) return undefined;
  if (context.acceptPastSchedule?.({ key: context.key, scheduledAt: schedule.instant }) === true) return undefined;
  return {
    severity: 'error',
    code: 'scheduled-at-past',
    message: `scheduledAt ${timeText(schedule.instant, context.timezone)} is in the past`,
    file: context.file,
    ...schedule.position,
    expected: `a time after ${timeText(now.getTime(), context.timezone)}`,
    found: schedule.raw.trim(),
    hint: 'Pick a future time, or remove `scheduledAt` to keep the post a draft.',
  };
}

/**
 * Whether `instant` (an ISO string) is at or after `now`. Two ISO strings of the usual form
 * (`YYYY-MM-DDTHH:mm:ss.sssZ`) compare as text, without parsing a date per post.
 */
function isNotBefore(instant: string, now: Date): boolean {
  const iso = now.toISOString();
  if (instant.length === iso.length && iso.length === 24 && instant[23] === 'Z' && instant[10] === 'T') return instant >= iso;
  return Date.parse(instant) >= now.getTime();
}
