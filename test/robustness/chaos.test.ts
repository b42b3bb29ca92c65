import { describe, expect, it } from 'vitest';
import { applyPlan } from '../../src/apply/apply-plan.js';
import { loadConfig } from '../../src/config/load-config.js';
import { DEMO_ACCOUNTS, DEMO_API_KEY } from '../../src/emulator/index.js';
import { makePng } from '../helpers/media-generators/index.js';
import { buildPlan } from '../../src/pipeline/build-plan.js';
import { connect } from '../../src/pipeline/connect.js';
import { hasChanges } from '../../src/plan/has-changes.js';
import { StateStore } from '../../src/state/state-store.js';
import { readStateSection } from '../../src/state/state-file.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { testdir } from '../helpers/testdir.js';

const POSTS = 200;
const IMAGES = 20;
const SEEDS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];

async function project(): Promise<string> {
  const files: Record<string, string | Buffer> = { 'postsync.yaml': `accounts:\n  photo: ${DEMO_ACCOUNTS.photo}\n` };
  for (let i = 0; i < IMAGES; i += 1) files[`media/image-${i}.png`] = makePng({ width: 64 + i, height: 64, rgb: { r: i * 10, g: 80, b: 200 - i * 5 } });
  for (let i = 0; i < POSTS; i += 1) {
    files[`posts/post-${String(i).padStart(3, '0')}.md`] = `---\ntargets: [photo]\nmedia: [media/image-${i % IMAGES}.png]\n---\nPost number ${i}.\n`;
  }
  return testdir(files);
}

interface Outcome {
  seed: number;
  applies: number;
  faults: number;
  requests: number;
}

/** Applies, then re-plans: one apply must reach an empty plan; then checks the remote against the files. */
async function convergeUnderChaos(seed: number, chaos: string): Promise<Outcome> {
  const api: TestEmulator = await startTestEmulator({ chaos: `${chaos},seed=${seed}` });
  try {
    const dir = await project();
    const config = await loadConfig({ cwd: dir, env: { POSTSYNC_API_KEY: DEMO_API_KEY }, flags: { apiUrl: api.baseUrl } });
    const connection = await connect(config, { ci: false });
    let applies = 0;
    try {
      for (;;) {
        const { plan } = await buildPlan({ config, connection, state: await readStateSection(config.statePath, connection.target), prune: true, only: null, now: new Date() });
        expect(plan.diagnostics).toEqual([]);
        if (!hasChanges(plan)) break;
        // Retries (same Idempotency-Keys) absorb every fault: one apply converges.
        expect(applies).toBe(0);
        applies += 1;
        const store = await StateStore.open(config.statePath, connection.target);
        await applyPlan({ plan, client: connection.client, store, root: config.root });
        await store.flush();
      }
    } finally {
      await connection.close();
    }
    const log = await api.requestLog();
    await api.setFaults('rate=0');
    const posts: { content: string; media: { id: string; sourceAvailable: boolean }[] }[] = [];
    for (let after: string | null = null; ; ) {
      const page: { items: typeof posts; nextCursor: string | null } = (await api.api('GET', `/posts?limit=100&sort=oldest${after ? `&after=${after}` : ''}`)).body.data;
      posts.push(...page.items);
      if (!page.nextCursor || page.items.length === 0) break;
      after = page.nextCursor;
    }
    // Exactly one remote post per file, each with its uploaded, completed image.
    expect(posts.map((p) => p.content).sort()).toEqual(Array.from({ length: POSTS }, (_, i) => `Post number ${i}.`).sort());
    expect(posts.every((p) => p.media.length === 1 && p.media[0]!.sourceAvailable)).toBe(true);
    expect(new Set(posts.map((p) => p.media[0]!.id)).size).toBe(IMAGES);
    return { seed, applies, faults: log.filter((entry) => entry.fault !== undefined).length, requests: log.length };
  } finally {
    await api.close();
  }
}

describe('apply under injected faults', () => {
  it(`converges for ${POSTS} posts with media over ${SEEDS.length} seeds and every fault kind, with no duplicate`, async () => {
    // Seeds run side by side: the injected stalls and Retry-After waits overlap instead of adding up.
    const outcomes = await Promise.all(SEEDS.map((seed) => convergeUnderChaos(seed, 'rate=0.2,kinds=503+500+429+reset+reset-after+slow')));
    const total = outcomes.reduce((sum, o) => ({ faults: sum.faults + o.faults, requests: sum.requests + o.requests }), { faults: 0, requests: 0 });
    console.info(`chaos: ${SEEDS.length} seeds, ${total.requests} requests, ${total.faults} faults, applies per seed ${outcomes.map((o) => o.applies).join(',')}`);
    expect(total.faults).toBeGreaterThan(SEEDS.length * 50);
  }, 180_000);
});
