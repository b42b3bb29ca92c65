import { describe, expect, it } from 'vitest';
import { ApiError, DEFAULT_RETRY_POLICY, NetworkError } from '../../src/api/index.js';
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
const RATE = 0.2;
const KINDS = ['503', '500', '429', 'reset', 'reset-after', 'slow'] as const;

/**
 * Why the expectation holds, and how often it may fail by chance. Every kind but `slow` fails the
 * attempt it hits, and the client retries each of them up to its attempt limit, so a call fails
 * only when all its attempts draw a failing fault: with independent draws, at most EXHAUSTED.
 * A round (plan, then apply what is left) makes at most MAX_REQUESTS requests (checked), so it
 * fails with probability at most P_ROUND = MAX_REQUESTS × EXHAUSTED (union bound), whatever came
 * before; what a failed round left undone, the next one does (a create is resent with its
 * Idempotency-Key). A seed is done after two rounds that do not fail (one applies everything, the
 * next plans nothing), so it is not done after MAX_ROUNDS rounds only if MAX_ROUNDS - 1 of them
 * failed: probability at most MAX_ROUNDS × P_ROUND^(MAX_ROUNDS - 1). MAX_ROUNDS is the smallest
 * count for which the whole test then fails by chance at most once in FLAKE_ODDS runs.
 */
const FAILING_PER_ATTEMPT = (RATE * KINDS.filter((kind) => kind !== 'slow').length) / KINDS.length;
const EXHAUSTED = FAILING_PER_ATTEMPT ** DEFAULT_RETRY_POLICY.maxAttempts;
/** Two requests per post and per upload request at most (retries included); a first round makes about 1.3. */
const MAX_REQUESTS = 2 * (POSTS + 3 * IMAGES);
const P_ROUND = MAX_REQUESTS * EXHAUSTED;
const FLAKE_ODDS = 1e6;
const chanceOfFailure = (rounds: number): number => SEEDS.length * rounds * P_ROUND ** (rounds - 1);
const MAX_ROUNDS = (() => {
  let rounds = 2;
  while (chanceOfFailure(rounds) > 1 / FLAKE_ODDS) rounds += 1;
  return rounds;
})();

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
  rounds: number;
  faults: number;
  requests: number;
}

/** A call that ran out of attempts: the next round does it again. Anything else is a bug. */
function outOfAttempts(error: unknown): boolean {
  return error instanceof ApiError || error instanceof NetworkError;
}

/** Plans and applies in rounds until a plan is empty (that round counted); then checks the remote against the files. */
async function convergeUnderChaos(seed: number, chaos: string): Promise<Outcome> {
  const api: TestEmulator = await startTestEmulator();
  try {
    const dir = await project();
    const config = await loadConfig({ cwd: dir, env: { POSTSYNC_API_KEY: DEMO_API_KEY }, flags: { apiUrl: api.baseUrl } });
    const connection = await connect(config, { ci: false });
    // Faults from here on, seeded: the session read above is not part of the experiment.
    await api.setFaults(`${chaos},seed=${seed}`);
    let rounds = 0;
    let seen = 0;
    try {
      for (;; rounds += 1) {
        expect(rounds, `seed ${seed} still has changes after ${MAX_ROUNDS} rounds`).toBeLessThan(MAX_ROUNDS);
        const state = await readStateSection(config.statePath, connection.project);
        const planned = await buildPlan({ config, connection, state, prune: true, selection: null, now: new Date() }).catch((error: unknown) => {
          if (outOfAttempts(error)) return null;
          throw error;
        });
        if (planned !== null) {
          expect(planned.plan.diagnostics).toEqual([]);
          if (!hasChanges(planned.plan)) {
            rounds += 1;
            break;
          }
          const store = await StateStore.open(config.statePath, connection.project, { seal: connection.seal });
          const result = await applyPlan({ plan: planned.plan, client: connection.client, store, root: config.root });
          await store.flush();
          expect(result.failed.filter(({ error }) => !outOfAttempts(error) && !outOfAttempts(error.cause))).toEqual([]);
        }
        const log = await api.requestLog();
        expect(log.length - seen, 'requests in one round').toBeLessThanOrEqual(MAX_REQUESTS);
        seen = log.length;
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
    return { seed, rounds, faults: log.filter((entry) => entry.fault !== undefined).length, requests: log.length };
  } finally {
    await api.close();
  }
}

describe('apply under injected faults', () => {
  it('needs only a few rounds, with odds worked out from the fault rate and the attempt limit', () => {
    expect(FAILING_PER_ATTEMPT).toBeCloseTo(1 / 6);
    expect(P_ROUND).toBeLessThan(0.012);
    // One apply and one empty plan, and up to three failed rounds: a chance failure in ~1.3 million runs.
    expect(MAX_ROUNDS).toBe(5);
    expect(chanceOfFailure(MAX_ROUNDS)).toBeLessThan(1e-6);
    expect(chanceOfFailure(MAX_ROUNDS - 1)).toBeGreaterThan(1e-6);
  });

  it(`converges for ${POSTS} posts with media over ${SEEDS.length} seeds and every fault kind within ${MAX_ROUNDS} rounds, with no duplicate`, async () => {
    // Seeds run side by side: the injected stalls and Retry-After waits overlap instead of adding up.
    const outcomes = await Promise.all(SEEDS.map((seed) => convergeUnderChaos(seed, `rate=${RATE},kinds=${KINDS.join('+')}`)));
    const total = outcomes.reduce((sum, o) => ({ faults: sum.faults + o.faults, requests: sum.requests + o.requests }), { faults: 0, requests: 0 });
    console.info(`chaos: ${SEEDS.length} seeds, ${total.requests} requests, ${total.faults} faults, rounds per seed ${outcomes.map((o) => o.rounds).join(',')}`);
    expect(total.faults).toBeGreaterThan(SEEDS.length * 50);
  }, 600_000);
});
