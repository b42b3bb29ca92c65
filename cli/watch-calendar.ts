import { calendarOf } from '../src/calendar/calendar-of.js';
import { CalendarServer, SERVED_MEDIA_PREFIX } from '../src/calendar/live-server.js';
import { PostFileEditor, type PostProject } from '../src/calendar/post-file-editor.js';
import { plannedCalendarSources } from '../src/calendar/read-calendar.js';
import type { Plan } from '../src/plan/types.js';
import type { WatchEvent } from '../src/watch/events.js';
import type { WatchSession } from '../src/watch/session.js';

/** The calendar of `watch --calendar`: a server, fed from the session's events. */
export interface WatchCalendar {
  url: string;
  /** Pass every watch event: each plan makes a new calendar. */
  onEvent(event: WatchEvent): void;
  /** The session, once started: the calendar of its first plan is made now. */
  attach(session: WatchSession): void;
  close(): Promise<void>;
}

/**
 * Serves the calendar on loopback and makes it again from each plan the session reports (after
 * every save), out of what the session already holds: no file is read twice and no API request
 * is made: the sources are made as `calendar` makes them (plannedCalendarSources). Media facts
 * (sizes, durations) come from the session's memo, which forgets a media file when it changes.
 */
export async function startWatchCalendar(options: { port: number; label: string; project: PostProject; onError: (error: Error) => void }): Promise<WatchCalendar> {
  let session: WatchSession | null = null;
  // The page's edits write the post files; the watch sees each write as a save and plans again.
  const editor = new PostFileEditor(() => (session === null ? options.project : session.planned().config));
  const server = await CalendarServer.start({ port: options.port, editor });
  let latest: Plan | null = null;
  /** Calendars are made in order; one made from an older plan is dropped when a newer one started. */
  let made = 0;

  const rebuild = (plan: Plan) => {
    if (session === null) return;
    const turn = ++made;
    const planned = session.planned();
    plannedCalendarSources(planned.desired, { plan, live: planned.live, state: planned.state, target: options.label, timezone: planned.config.timezone, media: planned.media })
      .then((sources) => {
        if (turn !== made) return;
        server.update(calendarOf(sources, { config: planned.config, now: new Date(), mediaPrefix: SERVED_MEDIA_PREFIX }));
      })
      .catch((error: unknown) => options.onError(error instanceof Error ? error : new Error(String(error))));
  };

  return {
    url: server.url,
    onEvent(event) {
      if (event.type !== 'started' && event.type !== 'plan') return;
      latest = event.plan;
      rebuild(event.plan);
    },
    attach(started) {
      session = started;
      if (latest !== null) rebuild(latest);
    },
    close: () => server.close(),
  };
}
