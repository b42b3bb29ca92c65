import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyPlan } from '../../src/apply/apply-plan.js';
import { loadConfig } from '../../src/config/load-config.js';
import { DEMO_API_KEY, startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { buildPlan } from '../../src/pipeline/build-plan.js';
import { connect } from '../../src/pipeline/connect.js';
import { journalPathFor, readJournalSync, replayJournal } from '../../src/state/journal.js';
import { StateStore } from '../../src/state/state-store.js';
import { demoProject, post } from '../e2e/project.js';

let emulator: RunningEmulator;
beforeAll(async () => {
  emulator = await startEmulator();
});
afterAll(() => emulator.close());

describe('applyPlan', () => {
  it('reports a change done only once the state file on disk records it', async () => {
    const posts = Object.fromEntries(
      Array.from({ length: 8 }, (_, i) => [`p${i}.md`, post({ body: `Post ${i}`, ...(i % 2 === 0 ? { scheduledAt: '2031-05-01 09:00' } : {}) })]),
    );
    const root = await demoProject(posts);
    const config = await loadConfig({ cwd: root, env: { POSTSYNC_API_KEY: DEMO_API_KEY }, flags: { apiUrl: emulator.baseUrl } });
    const connection = await connect(config, { ci: false });
    try {
      const store = await StateStore.open(config.statePath, connection.project, { seal: connection.seal });
      const { plan } = await buildPlan({ config, connection, state: { section: store.section, hash: store.sectionHash() }, prune: false, selection: null, now: new Date() });
      const recordedWhenDone: boolean[] = [];
      const result = await applyPlan({
        plan,
        client: connection.client,
        store,
        root,
        concurrency: 2,
        onEvent: (event) => {
          if (event.type !== 'change-done') return;
          // On disk: the state file (absent until the first fold) with its journal replayed.
          const file = existsSync(config.statePath) ? JSON.parse(readFileSync(config.statePath, 'utf8')) : { version: 1, targets: {} };
          const onDisk = replayJournal(file, readJournalSync(journalPathFor(config.statePath))?.records ?? []);
          recordedWhenDone.push(onDisk.targets[connection.project.id]?.posts[event.change.key]?.postId === event.postId);
        },
      });
      expect(result.failed).toEqual([]);
      expect(recordedWhenDone).toEqual(Array(8).fill(true));
      // The run ends with the journal folded into the state file.
      expect(existsSync(journalPathFor(config.statePath))).toBe(false);
      expect(Object.keys(JSON.parse(readFileSync(config.statePath, 'utf8')).targets[connection.project.id].posts)).toHaveLength(8);
      const again = await buildPlan({ config, connection, state: { section: store.section, hash: store.sectionHash() }, prune: false, selection: null, now: new Date() });
      expect(again.plan.summary).toMatchObject({ create: 0, update: 0, noop: 8 });
    } finally {
      await connection.close();
    }
  });
});
