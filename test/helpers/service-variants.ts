import type { Variant, VariantExchange } from './variant-proxy.js';

/**
 * Ways a real service may answer where the spec says "not shown", as switches of one variant:
 * field names of GET /auth/session, media kinds, target statuses, the vocabulary of
 * `rules.options`, and an empty `nextCursor` at the end of a listing. Each switch left out keeps
 * the emulator's answer.
 */
export interface VariantSwitches {
  /** Session field names: `flat` (projectId, keyExpiresAt, scopes), `renamed` (project as a string, apiKey.expiresAt, effectivePermissions). */
  session?: 'flat' | 'renamed';
  /** Media kind → the kind the service says instead (`video` → `clip`). */
  mediaKinds?: Record<string, string>;
  /** Target status → the status the service says instead (`pending` → `queued`). */
  targetStatuses?: Record<string, string>;
  /** `rules.options` as JSON-schema-like entries (`schema`) or as a list of fields (`list`). */
  options?: 'schema' | 'list';
  /** `nextCursor: ""` instead of null at the end of every listing. */
  emptyCursor?: boolean;
  /** Every time of a post (and of its targets) written with this numeric offset instead of `Z` (RFC 3339 allows either). */
  timeOffset?: '+01:00' | '-05:00';
  /** Per platform, option values the service fills in on its answers where the post sent none (its defaults). */
  optionDefaults?: Record<string, Record<string, unknown>>;
  /** The service keeps texts with the blanks at the end of each line trimmed (a Markdown hard break `Line:  ` loses its blanks). */
  trimsLineEnds?: boolean;
  /** The service keeps texts in Unicode NFC. */
  nfc?: boolean;
  /** The service keeps `scheduledAt` to the minute and answers it on the clock of this offset. */
  minuteAt?: '+09:00';
  /** The service keeps `vidATags` lower-cased without a leading `#`, and `vidATitle` single-spaced. */
  tidiesVidA?: boolean;
  /** The service answers media in another order, with a thumbnail item it derived added. */
  mediaWithThumbnail?: boolean;
  /** A scheduler of the service touches every post in the background: `updatedAt` moves on, nothing else. */
  touchesUpdatedAt?: boolean;
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

export function variantOf(name: string, switches: VariantSwitches, extra: Pick<Variant, 'readLagMs'> = {}): Variant {
  const since = Date.now();
  const tidying = switches.trimsLineEnds || switches.nfc || switches.minuteAt || switches.tidiesVidA;
  return {
    name,
    ...extra,
    rewrite: (exchange, data) => rewrite({ ...switches, touchedSince: switches.touchesUpdatedAt ? since : undefined }, exchange, data),
    ...(tidying ? { request: (_exchange: VariantExchange, body: unknown) => tidy(switches, body) } : {}),
  };
}

/** Every way a service may tidy what it keeps, and lag, that the main flow must converge under. */
export const TIDYING_VARIANTS: readonly Variant[] = [
  variantOf('line ends trimmed', { trimsLineEnds: true }),
  variantOf('texts in NFC', { nfc: true }),
  variantOf('times to the minute at +09:00', { minuteAt: '+09:00' }),
  variantOf('vidA tags and title tidied', { tidiesVidA: true }),
  variantOf('media reordered with a thumbnail', { mediaWithThumbnail: true }),
  variantOf('updatedAt touched in the background', { touchesUpdatedAt: true }),
  variantOf('reads lag writes', {}, { readLagMs: 2500 }),
  variantOf('all of it', { trimsLineEnds: true, nfc: true, minuteAt: '+09:00', tidiesVidA: true, mediaWithThumbnail: true, touchesUpdatedAt: true }),
];

/** A text as a tidying service keeps it. */
export function tidyText(switches: Pick<VariantSwitches, 'trimsLineEnds' | 'nfc'>, text: string): string {
  let result = switches.trimsLineEnds ? text.replace(/[ \t]+$/gm, '') : text;
  if (switches.nfc) result = result.normalize('NFC');
  return result;
}

function tidy(switches: VariantSwitches, body: unknown): unknown {
  if (!isObject(body)) return body;
  if (typeof body.content === 'string') body.content = tidyText(switches, body.content);
  if (switches.minuteAt && typeof body.scheduledAt === 'string') {
    const time = Date.parse(body.scheduledAt);
    if (!Number.isNaN(time)) body.scheduledAt = new Date(time - (time % 60_000)).toISOString();
  }
  for (const target of Array.isArray(body.targets) ? body.targets : []) {
    if (!isObject(target)) continue;
    if (typeof target.contentOverride === 'string') target.contentOverride = tidyText(switches, target.contentOverride);
    const options = isObject(target.options) ? target.options : undefined;
    if (!options || !switches.tidiesVidA) continue;
    if (Array.isArray(options.vidATags)) options.vidATags = options.vidATags.map((tag) => (typeof tag === 'string' ? tag.replace(/^#/, '').toLowerCase() : tag));
    if (typeof options.vidATitle === 'string') options.vidATitle = options.vidATitle.replace(/\s+/g, ' ').trim();
  }
  return body;
}

/** One variant per switch, as the end-to-end flow runs them. */
export const SERVICE_VARIANTS: readonly Variant[] = [
  variantOf('session fields flat', { session: 'flat' }),
  variantOf('session fields renamed', { session: 'renamed' }),
  variantOf('media kinds clip and picture', { mediaKinds: { video: 'clip', image: 'picture' } }),
  variantOf('target status queued', { targetStatuses: { pending: 'queued' } }),
  variantOf('options as schemas', { options: 'schema' }),
  variantOf('options as a list', { options: 'list' }),
  variantOf('empty cursor at the end', { emptyCursor: true }),
  variantOf('times with an offset', { timeOffset: '-05:00' }),
  variantOf('option defaults filled in', { optionDefaults: { photoC: { format: 'feed', shareToFeed: true }, shortB: { shortBAllowComment: true, shortBIsAigc: false } } }),
];

function rewrite(switches: VariantSwitches & { touchedSince?: number | undefined }, exchange: VariantExchange, data: unknown): unknown {
  const { path } = exchange;
  if (path === '/auth/session' && switches.session && isObject(data)) return session(switches.session, data);
  if (/^\/accounts\/[^/]+\/capabilities$/.test(path) && switches.options && isObject(data) && isObject(data.rules)) {
    data.rules.options = options(switches.options, data.rules.options as Json);
    return data;
  }
  if (isObject(data) && Array.isArray(data.items)) {
    if (switches.emptyCursor && data.nextCursor === null) data.nextCursor = '';
    if (path === '/posts') for (const item of data.items) post(switches, item);
    return data;
  }
  if (path === '/posts' || path.startsWith('/posts/')) post(switches, data);
  if (path.startsWith('/media/') && isObject(data)) media(switches, isObject(data.media) ? data.media : data);
  return data;
}

function session(shape: 'flat' | 'renamed', data: Json): Json {
  const project = data.project as { id: string };
  const key = data.key as { expiresAt: string | null };
  if (shape === 'flat') return { projectId: project.id, keyExpiresAt: key.expiresAt, scopes: data.permissions };
  return { project: project.id, apiKey: { expiresAt: key.expiresAt }, effectivePermissions: data.permissions };
}

function options(vocabulary: 'schema' | 'list', rules: Json): unknown {
  const entries = Object.entries(rules) as [string, { type: string; values?: string[]; maxLength?: number; required?: boolean }][];
  if (vocabulary === 'list') return { fields: entries.map(([name, rule]) => ({ name, valueType: rule.type, mandatory: rule.required === true })) };
  return Object.fromEntries(entries.map(([name, rule]) => [name, { schema: { type: rule.type, ...(rule.values ? { enum: rule.values } : {}), ...(rule.maxLength ? { maxLength: rule.maxLength } : {}) } }]));
}

function post(switches: VariantSwitches & { touchedSince?: number | undefined }, data: unknown): void {
  if (!isObject(data)) return;
  if (switches.mediaWithThumbnail && Array.isArray(data.media) && data.media.length > 0 && typeof data.id === 'string') {
    const thumbnail = { id: `7e0b7e0b-${data.id.slice(9)}`, kind: 'image', contentType: 'image/jpeg', url: 'https://thumbnails.invalid/derived.jpg', sourceAvailable: false, width: 320, height: 180 };
    data.media = [...(data.media as unknown[]).reverse(), thumbnail];
  }
  if (switches.touchedSince !== undefined && typeof data.updatedAt === 'string') {
    const elapsed = Math.floor((Date.now() - switches.touchedSince) / 1000) * 1000;
    data.updatedAt = new Date(Date.parse(data.updatedAt) + elapsed).toISOString();
  }
  if (switches.minuteAt) withOffset(data, ['scheduledAt'], switches.minuteAt);
  for (const item of Array.isArray(data.media) ? data.media : []) media(switches, item);
  for (const target of Array.isArray(data.targets) ? data.targets : []) {
    if (isObject(target) && typeof target.status === 'string') target.status = switches.targetStatuses?.[target.status] ?? target.status;
    if (isObject(target) && switches.timeOffset) withOffset(target, ['publishedAt', 'nextAttemptAt'], switches.timeOffset);
    const defaults = isObject(target) && typeof target.platform === 'string' ? switches.optionDefaults?.[target.platform] : undefined;
    if (isObject(target) && defaults) target.options = { ...defaults, ...(isObject(target.options) ? target.options : {}) };
  }
  if (switches.timeOffset) withOffset(data, ['scheduledAt', 'publishedAt', 'createdAt', 'updatedAt'], switches.timeOffset);
}

/** The same instants, written on the clock of `offset` (`2031-03-01T08:00:00.000Z` → `2031-03-01T03:00:00.000-05:00`). */
function withOffset(data: Json, fields: readonly string[], offset: '+01:00' | '-05:00' | '+09:00'): void {
  const sign = offset.startsWith('-') ? -1 : 1;
  const minutes = sign * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4, 6)));
  for (const field of fields) {
    const value = data[field];
    if (typeof value !== 'string' || !value.endsWith('Z')) continue;
    data[field] = `${new Date(Date.parse(value) + minutes * 60_000).toISOString().slice(0, -1)}${offset}`;
  }
}

function media(switches: VariantSwitches, data: unknown): void {
  if (isObject(data) && typeof data.kind === 'string') data.kind = switches.mediaKinds?.[data.kind] ?? data.kind;
}
