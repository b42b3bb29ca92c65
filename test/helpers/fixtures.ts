import type { Capabilities, Post, Target } from '../../src/api/types.js';
import type { DesiredMedia, DesiredPost, InvalidFile, PostShape, TargetShape } from '../../src/content/types.js';
import type { Diagnostic } from '../../src/diagnostics.js';
import type { UnconfirmedRecords } from '../../src/state/types.js';
import { emptyProjectState, stateSectionHash } from '../../src/state/state-file.js';
import { shapeHash } from '../../src/content/shape-hash.js';
import type { PostRecord, ProjectState } from '../../src/state/types.js';
import type { ReasonDetail } from '../../src/plan/reason-details.js';
import { livePostsById } from '../../src/plan/plan-context.js';
import { summarize } from '../../src/plan/planner.js';
import { CHANGE_REASONS, type AccountAvailability, type Action, type Change, type HeldPost, type LivePostsById, type MediaUpload, type Plan, type PlanChoices, type PlanInput, type RemoteProject } from '../../src/plan/types.js';

/**
 * The builders of posts, remote posts, state sections and plans that unit tests of the planner,
 * apply, watch, the state and the calendar share: one set, so that a field added to a type is
 * added here once.
 */

export const PHOTO = '6f1c2d6e-0a55-4c59-9d0f-3b8f5d1a7e01';
export const SHORT = '8b3e4f50-2c77-4e7b-9f20-5dab7f3c9a03';
export const VIDEO = '7a2b3c4d-1111-4222-8333-944455556666';
export const SHA_A = 'a'.repeat(64);
export const SHA_B = 'b'.repeat(64);

export const TARGET: RemoteProject = { id: 'local:demo', apiUrl: 'http://127.0.0.1:4010/public/v1', projectId: 'demo', local: true };

export function shape(overrides: Partial<PostShape> = {}): PostShape {
  return { content: 'Hello', scheduledAt: null, targets: [{ socialAccountId: PHOTO, options: {} }], media: [], ...overrides };
}

export function desiredMedia(sha256: string, path: string): DesiredMedia {
  return { ref: path, path, absolutePath: `/project/${path}`, sha256, sizeBytes: 1234, contentType: 'image/png', kind: 'image' };
}

export function desired(key: string, postShape: PostShape = shape(), options: { file?: string; media?: DesiredMedia[] } = {}): DesiredPost {
  return {
    key,
    file: options.file ?? `posts/${key}.md`,
    shape: postShape,
    shapeHash: shapeHash(postShape),
    fingerprint: `${key}:${shapeHash(postShape)}`,
    media: options.media ?? postShape.media.map((sha) => desiredMedia(sha, `media/${sha.slice(0, 4)}.png`)),
    targetLabels: postShape.targets.map((target) => target.socialAccountId),
  };
}

function echoTarget(target: TargetShape): Target {
  return {
    socialAccountId: target.socialAccountId,
    platform: 'photoC',
    handle: '@acme',
    ...(target.contentOverride === undefined ? {} : { contentOverride: target.contentOverride }),
    // The service echoes input options and adds response-only ones.
    options: { ...target.options, vidAPrivacy: 'public', shortBMode: 'direct' },
    status: 'pending',
  };
}

/** The remote post the service would return for a shape (media ids are `m-<sha prefix>`). */
export function livePost(id: string, postShape: PostShape, overrides: Partial<Post> = {}): Post {
  return {
    id,
    status: postShape.scheduledAt === null ? 'draft' : 'scheduled',
    content: postShape.content,
    scheduledAt: postShape.scheduledAt,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-02T00:00:00.000Z',
    targets: [...postShape.targets].reverse().map(echoTarget),
    media: postShape.media.map((sha) => ({ id: mediaId(sha), kind: 'image', url: 'u', sourceAvailable: true, contentType: 'image/png' })),
    ...overrides,
  };
}

export function mediaId(sha: string): string {
  return `m-${sha.slice(0, 8)}`;
}

export function record(postId: string, appliedShape: PostShape, file: string): PostRecord {
  return {
    postId,
    file,
    appliedHash: shapeHash(appliedShape),
    remoteUpdatedAt: '2026-01-02T00:00:00.000Z',
    appliedAt: '2026-01-02T00:00:00.000Z',
  };
}

export function state(overrides: Partial<ProjectState> = {}): ProjectState {
  return { ...emptyProjectState(TARGET), ...overrides };
}

/** A state section owning `posts` (key → [post id, the shape last applied]), each recorded from `posts/<key>.md`. */
export function owning(posts: Record<string, [string, PostShape]>): ProjectState {
  return state({ posts: Object.fromEntries(Object.entries(posts).map(([key, [postId, applied]]) => [key, record(postId, applied, `posts/${key}.md`)])) });
}

export function mediaState(...shas: string[]): ProjectState['media'] {
  return Object.fromEntries(
    shas.map((sha) => [sha, { mediaId: mediaId(sha), sizeBytes: 1234, contentType: 'image/png', uploadedAt: '2026-01-01T00:00:00.000Z' }]),
  );
}

export function accounts(entries: Record<string, AccountAvailability> = {}): Map<string, AccountAvailability> {
  return new Map(Object.entries({ [PHOTO]: { available: true }, [VIDEO]: { available: true }, ...entries }));
}

/** What a test says of a plan's input, flat: the posts, the state section, the live posts as a list, the accounts' availability. */
export interface PlanInputParts {
  target?: RemoteProject;
  desired?: DesiredPost[];
  /** The content diagnostics. */
  diagnostics?: Diagnostic[];
  checks?: Diagnostic[];
  invalid?: InvalidFile[];
  held?: HeldPost[];
  state?: ProjectState;
  stateHash?: string;
  unconfirmed?: UnconfirmedRecords;
  foreignOwners?: ReadonlyMap<string, string>;
  live?: readonly Post[] | LivePostsById;
  mediaSha256s?: ReadonlyMap<string, string>;
  accounts?: Map<string, AccountAvailability>;
  prune?: boolean;
  /** ISO instant. */
  now?: string;
  timezone?: string;
  choices?: PlanChoices;
}

/** The capabilities an account's availability is read from (`accountAvailability`). */
function capabilitiesOf(availability: ReadonlyMap<string, AccountAvailability>): Map<string, Capabilities> {
  return new Map([...availability].map(([id, { available, reason }]) => [id, { supported: true, available, ...(reason === undefined ? {} : { reason }) } as Capabilities]));
}

/** A PlanInput from its parts. */
export function planInput(parts: PlanInputParts = {}): PlanInput {
  const section = parts.state ?? state();
  const { live = [] } = parts;
  return {
    project: parts.target ?? TARGET,
    desired: { posts: parts.desired ?? [], held: parts.held ?? [], invalid: parts.invalid ?? [], contentDiagnostics: parts.diagnostics ?? [], checkDiagnostics: parts.checks ?? [] },
    remote: {
      live: Array.isArray(live) ? livePostsById(live) : (live as LivePostsById),
      capabilities: capabilitiesOf(parts.accounts ?? accounts()),
      ...(parts.mediaSha256s === undefined ? {} : { mediaSha256s: parts.mediaSha256s }),
    },
    state: {
      section,
      hash: parts.stateHash ?? stateSectionHash(section),
      ...(parts.unconfirmed === undefined ? {} : { unconfirmed: parts.unconfirmed }),
      ...(parts.foreignOwners === undefined ? {} : { foreignOwners: parts.foreignOwners }),
    },
    prune: parts.prune ?? false,
    now: new Date(parts.now ?? '2026-03-01T12:00:00.000Z'),
    timezone: parts.timezone ?? 'UTC',
    ...(parts.choices === undefined ? {} : { choices: parts.choices }),
  };
}

/** A plan of these changes (as a view or apply gets it), for the rules that post-process a plan. */
export function planOf(changes: Change[], uploads: MediaUpload[] = []): Plan {
  return { formatVersion: 1, createdAt: '2026-03-01T12:00:00.000Z', target: TARGET, stateHash: 'h', prune: false, only: null, uploads, changes, summary: summarize(changes), diagnostics: [] };
}

/**
 * A hand-made change for a rule that reads only some of its fields: typed loosely, as a plan file
 * could hold it; its reason is the first code of its action unless given.
 */
export function looseChange(fields: { action: Action; key: string; file: string | null; postId: string | null; details: ReasonDetail[] } & Record<string, unknown>): Change {
  return { reason: CHANGE_REASONS[fields.action][0], ...fields } as Change;
}
