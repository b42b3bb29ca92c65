import { describe, expect, it } from 'vitest';
import { plannedCalendarSources } from '../../src/calendar/read-calendar.js';
import { loadConfig } from '../../src/config/load-config.js';
import { DEMO_API_KEY } from '../../src/emulator/index.js';
import { createMediaMemo } from '../../src/media/media-memo.js';
import { probeMedia } from '../../src/media/probe.js';
import { buildPlan } from '../../src/pipeline/build-plan.js';
import { connect } from '../../src/pipeline/connect.js';
import { readStateSection } from '../../src/state/state-file.js';
import { demoProject, post } from '../e2e/project.js';
import { useEmulator } from '../helpers/emulator.js';

const emulator = useEmulator();

describe('the calendar of a plan', () => {
  it('takes its media facts from the memo the plan read with: each media file is probed once', async () => {
    const dir = await demoProject({
      'one.md': post({ body: 'One.' }),
      'two.md': post({ body: 'Two.', media: '[media/cover.png, media/teaser.mp4]', targets: '[video]' }),
    });
    const config = await loadConfig({ cwd: dir, env: { POSTSYNC_API_KEY: DEMO_API_KEY }, flags: { apiUrl: emulator().baseUrl } });
    const probed: string[] = [];
    const caches = { media: createMediaMemo({ prober: (path) => (probed.push(path), probeMedia(path)) }) };
    const connection = await connect(config, { ci: false });
    try {
      const state = await readStateSection(config.statePath, connection.project);
      const built = await buildPlan({ config, connection, state, caches, prune: false, selection: null, now: new Date() });
      const sources = await plannedCalendarSources(built.desired, { plan: built.plan, live: built.live, state: built.state.section, target: connection.label, timezone: config.timezone, media: caches.media });
      expect(sources.cards.flatMap((card) => card.content.media.map((media) => [media.path, media.width, media.height]))).toEqual([
        ['media/cover.png', expect.any(Number), expect.any(Number)],
        ['media/cover.png', expect.any(Number), expect.any(Number)],
        ['media/teaser.mp4', expect.any(Number), expect.any(Number)],
      ]);
    } finally {
      await connection.close();
    }
    expect(probed.map((path) => path.slice(dir.length)).sort()).toEqual(['/media/cover.png', '/media/teaser.mp4']);
  });
});
