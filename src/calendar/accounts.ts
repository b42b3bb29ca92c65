import { knownOptionRules } from '../api/option-rules.js';
import type { Capabilities } from '../api/types.js';
import { unitWord } from '../content/text-length.js';
import type { AccountMedia, CalendarAccount } from './model.js';

/**
 * The accounts of the calendar, in a stable order (postsync.yaml's aliases first, as written, then
 * any other account by id), each with its colour index, label and caption rules.
 */
export function calendarAccounts(input: {
  aliases: Readonly<Record<string, string>>;
  /** Accounts the posts target. */
  used: Iterable<string>;
  capabilities: ReadonlyMap<string, Capabilities>;
  /** Handles as the remote gives them, by account id (from live targets). */
  handles: ReadonlyMap<string, string>;
}): CalendarAccount[] {
  const aliasOf = new Map<string, string>();
  for (const [alias, id] of Object.entries(input.aliases)) if (!aliasOf.has(id)) aliasOf.set(id, alias);
  const others = [...new Set(input.used)].filter((id) => !aliasOf.has(id)).sort();
  return [...aliasOf.keys(), ...others].map((id, color) => {
    const capabilities = input.capabilities.get(id);
    const handle = input.handles.get(id) ?? null;
    const unit = capabilities?.rules.caption.lengthUnit ?? 'characters';
    return {
      id,
      label: aliasOf.get(id) ?? handle ?? id,
      platform: capabilities?.account.platform ?? null,
      handle,
      color,
      available: capabilities === undefined ? true : capabilities.available && capabilities.supported,
      ...(capabilities?.reason === undefined ? {} : { reason: capabilities.reason }),
      maxLength: capabilities?.rules.caption.maxLength ?? null,
      unit,
      unitWord: unitWord(unit),
      media: capabilities === undefined ? null : mediaOf(capabilities),
      listOptions: Object.entries(knownOptionRules(capabilities?.rules.options) ?? {}).filter(([, rule]) => rule.type === 'array').map(([name]) => name),
    };
  });
}

function mediaOf({ rules }: Capabilities): AccountMedia {
  const { images, videos } = rules.media;
  const { max, maxVideos, allowMixed } = rules.attachments;
  return { images: { types: images.contentTypes, maxBytes: images.maxBytes }, videos: { types: videos.contentTypes, maxBytes: videos.maxBytes }, maxFiles: max, maxVideos, mixed: allowMixed };
}
