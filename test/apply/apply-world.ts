import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';
import { ApiClient } from '../../src/api/index.js';
import type { Post } from '../../src/api/types.js';
import { applyPlan, type ApplyOptions } from '../../src/apply/apply-plan.js';
import type { ApplyEvent, ApplyResult } from '../../src/apply/events.js';
import type { DesiredMedia, DesiredPost } from '../../src/content/types.js';
import { DEMO_API_KEY } from '../../src/emulator/index.js';
import { makePng } from '../helpers/media-generators/index.js';
import { createPlan } from '../../src/plan/planner.js';
import type { Plan, PlanChoices, RemoteProject } from '../../src/plan/types.js';
import { StateStore } from '../../src/state/state-store.js';
import type { TestEmulator } from '../helpers/emulator.js';
import { testdir } from '../helpers/testdir.js';
import { planInput } from '../helpers/fixtures.js';
import { testSeal } from '../helpers/seal.js';

/**
 * One project applied to a running emulator: a client (one attempt per call, so a refusal is
 * final at once), a state store in a fresh directory, and the project root media paths are read from.
 */
export interface ApplyWorld {
  api: TestEmulator;
  client: ApiClient;
  store: StateStore;
  root: string;
  statePath: string;
  target: RemoteProject;
}

export async function applyWorld(api: TestEmulator, options: { baseUrl?: string; root?: string } = {}): Promise<ApplyWorld> {
  await api.reset();
  const root = options.root ?? (await testdir());
  const statePath = join(await testdir(), 'state.json');
  const target: RemoteProject = { id: 'local:demo', apiUrl: api.baseUrl, projectId: 'demo', local: true };
  const client = new ApiClient({ baseUrl: options.baseUrl ?? api.baseUrl, apiKey: DEMO_API_KEY, maxAttempts: 1 });
  onTestFinished(() => client.close());
  return { api, client, root, statePath, target, store: await StateStore.open(statePath, target, { seal: testSeal(target) }) };
}

/** Every post on the remote, oldest first. */
export async function remotePosts(world: ApplyWorld): Promise<Post[]> {
  const posts: Post[] = [];
  for await (const post of world.client.listPosts({ sort: 'oldest' })) posts.push(post);
  return posts;
}

/** The plan for these desired posts against the remote and the store as they are now. */
export async function planNow(world: ApplyWorld, desired: DesiredPost[], options: { prune?: boolean; choices?: PlanChoices } = {}): Promise<Plan> {
  return createPlan(
    planInput({
      target: world.target,
      desired,
      state: world.store.section,
      stateHash: world.store.sectionHash(),
      live: await remotePosts(world),
      prune: options.prune ?? false,
      ...(options.choices === undefined ? {} : { choices: options.choices }),
    }),
  );
}

/** Applies a plan, recording its events; `now` is fixed so state records can be compared whole. */
export async function applyNow(world: ApplyWorld, plan: Plan, options: Partial<ApplyOptions> = {}): Promise<ApplyResult & { events: ApplyEvent[] }> {
  const events: ApplyEvent[] = [];
  const result = await applyPlan({ plan, client: world.client, store: world.store, root: world.root, now: () => new Date(APPLIED_AT), onEvent: (event) => events.push(event), ...options });
  return { ...result, events };
}

export const APPLIED_AT = '2026-05-01T10:00:00.000Z';

/** Writes a PNG the emulator accepts under the project root and describes it as content reading would. */
export async function pngMedia(world: Pick<ApplyWorld, 'root'>, name: string, shade = 0): Promise<DesiredMedia> {
  const bytes = makePng({ width: 32 + shade, height: 32, rgb: { r: shade, g: 90, b: 160 } });
  const path = `media/${name}`;
  await writeFile(join(world.root, name), bytes);
  return {
    ref: path,
    path: name,
    absolutePath: join(world.root, name),
    sha256: createHash('sha256').update(bytes).digest('hex'),
    sizeBytes: bytes.length,
    contentType: 'image/png',
    kind: 'image',
  };
}

/** API requests (method and path) logged by the emulator since the last clear, control calls left out. */
export async function writes(world: ApplyWorld): Promise<string[]> {
  return (await world.api.requestLog()).filter((entry) => entry.method !== 'GET').map((entry) => `${entry.method} ${entry.path.replace(/^\/public\/v1/, '')}`);
}
