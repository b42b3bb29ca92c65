import { INPUT_OPTION_FIELDS, type Options, type OptionsInput, type Post, type Target } from '../api/types.js';
import type { PostShape, TargetShape } from '../content/types.js';
import { shapeHash } from '../content/shape-hash.js';
import { compareText } from '../text/ordering.js';
import type { ProjectState } from '../state/types.js';

/** media id → sha256 of every upload recorded in a state section. */
export function mediaIdIndex(state: Pick<ProjectState, 'media'>): Map<string, string> {
  const index = new Map<string, string>();
  for (const [sha256, record] of Object.entries(state.media)) index.set(record.mediaId, sha256);
  return index;
}

/**
 * A scheduledAt as the one comparable form, `Date#toISOString()` (UTC, milliseconds). A value
 * that is not a date is kept as written, so it shows up as a difference instead of throwing.
 */
export function normalizeInstant(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const time = Date.parse(value);
  return Number.isNaN(time) ? value : new Date(time).toISOString();
}

/**
 * Options as sent: only the spec's input fields with a defined value. An allow-list, so a
 * response-only field the service adds later can never show up as a perpetual diff.
 */
export function inputOptions(options: Options | OptionsInput | undefined): OptionsInput {
  const result: Record<string, unknown> = {};
  const given = (options ?? {}) as Record<string, unknown>;
  for (const name of INPUT_OPTION_FIELDS) {
    if (given[name] !== undefined) result[name] = given[name];
  }
  return result as OptionsInput;
}

function liveTarget(target: Target): TargetShape {
  const shape: TargetShape = { socialAccountId: target.socialAccountId, options: inputOptions(target.options) };
  if (target.contentOverride !== undefined && target.contentOverride !== null) {
    shape.contentOverride = target.contentOverride;
  }
  return shape;
}

export function compareTargets(a: { socialAccountId: string }, b: { socialAccountId: string }): number {
  return compareText(a.socialAccountId, b.socialAccountId);
}

/** The fields of a remote post its shape is made of. */
export type LiveShapeFields = Pick<Post, 'content' | 'scheduledAt' | 'targets' | 'media'>;

/**
 * The PostShape of a remote post, comparable with a desired shape: the same normalization the
 * content side applies, so an unchanged post never shows a diff. Media ids are mapped back to the
 * sha256 they were uploaded from; an id unknown to state becomes `id:<id>` and always differs.
 */
export function liveShape(post: LiveShapeFields, mediaIdToSha: ReadonlyMap<string, string>): PostShape {
  return {
    content: post.content,
    scheduledAt: normalizeInstant(post.scheduledAt),
    targets: post.targets.map(liveTarget).sort(compareTargets),
    media: post.media.map((media) => mediaIdToSha.get(media.id) ?? `id:${media.id}`),
  };
}

/**
 * The live shape without the option values of each target that `desired` leaves unset on that
 * target: an option a file does not set is left to the service, which may answer with its own
 * default for it (the spec leaves defaults open), and that is no difference. Used wherever a
 * remote post is asked whether it is what a file says (noop, drift, adopt, rename, an interrupted
 * create's post); an update still sends the file's targets whole.
 */
export function leftToService(live: PostShape, desired: PostShape): PostShape {
  const wanted = new Map(desired.targets.map((target) => [target.socialAccountId, target.options as Record<string, unknown>]));
  return {
    ...live,
    targets: live.targets.map((target) => {
      const set = wanted.get(target.socialAccountId);
      if (set === undefined) return target;
      const options = Object.fromEntries(Object.entries(target.options).filter(([name]) => set[name] !== undefined));
      return { ...target, options: options as OptionsInput };
    }),
  };
}

/** Whether a remote post's shape is what `desired` says, options it leaves unset aside (`leftToService`). */
export function isLeftToService(live: PostShape, desired: PostShape, desiredHash: string = shapeHash(desired)): boolean {
  return shapeHash(leftToService(live, desired)) === desiredHash;
}

/** A shape's hash with no option values at all: the bucket in which `isLeftToService` may find its match. */
export function withoutOptionsHash(shape: PostShape): string {
  return shapeHash({ ...shape, targets: shape.targets.map((target) => ({ ...target, options: {} })) });
}
