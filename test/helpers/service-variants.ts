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
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

export function variantOf(name: string, switches: VariantSwitches): Variant {
  return { name, rewrite: (exchange, data) => rewrite(switches, exchange, data) };
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

function rewrite(switches: VariantSwitches, exchange: VariantExchange, data: unknown): unknown {
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

function post(switches: VariantSwitches, data: unknown): void {
  if (!isObject(data)) return;
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
function withOffset(data: Json, fields: readonly string[], offset: string): void {
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
