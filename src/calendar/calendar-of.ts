import type { Capabilities } from '../api/types.js';
import type { Config } from '../config/types.js';
import { buildCalendarModel } from './build-model.js';
import { thumbnailFiles } from './media-views.js';
import type { CalendarModel } from './model.js';
import type { CalendarSources } from './read-calendar.js';

export interface Calendar {
  model: CalendarModel;
  /** Thumbnail name (as the page refers to it) → the project file it shows. */
  thumbnails: Map<string, string>;
  /** The accounts' rules, by id: what a media file the page adds is checked against (none: not checked). */
  capabilities?: ReadonlyMap<string, Capabilities>;
}

/**
 * The calendar of what `readCalendarSources` read. `mediaPrefix` is where the page finds its
 * thumbnails: a folder next to a written page (`media/`), or a server's route (`/media/`).
 */
export function calendarOf(sources: CalendarSources, options: CalendarOptions): Calendar {
  const model = buildCalendarModel({
    now: options.now,
    timezone: options.config.timezone,
    aliases: options.config.accounts,
    slots: options.config.slots,
    target: sources.target,
    cards: sources.cards,
    plan: sources.plan,
    live: sources.live,
    state: sources.state,
    capabilities: sources.capabilities,
    diagnostics: sources.diagnostics,
    mediaPrefix: options.mediaPrefix,
    ...(options.range === undefined ? {} : { range: options.range }),
    ...(sources.offlineReason === undefined ? {} : { offlineReason: sources.offlineReason }),
  });
  return { model, thumbnails: thumbnailFiles(model, sources.cards, { root: options.config.root, mediaPrefix: options.mediaPrefix }), capabilities: sources.capabilities };
}

interface CalendarOptions {
  config: Config;
  now: Date;
  range?: { from: string | null; to: string | null };
  mediaPrefix: string;
}

/** The scope of the feed's event UIDs: the configured API (the embedded one is `local`). */
export function feedScope(config: Config): string {
  return config.api.url ?? 'local';
}
