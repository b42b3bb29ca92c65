import { appendFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyPlan } from '../../src/apply/apply-plan.js';
import { loadConfig } from '../../src/config/load-config.js';
import { DEMO_API_KEY } from '../../src/emulator/index.js';
import { buildPlan } from '../../src/pipeline/build-plan.js';
import { connect } from '../../src/pipeline/connect.js';
import { hasChanges } from '../../src/plan/has-changes.js';
import { readStateSection } from '../../src/state/state-file.js';
import { StateStore } from '../../src/state/state-store.js';
import { useEmulator } from '../helpers/emulator.js';
import { demoProject } from './project.js';

const emulator = useEmulator();

const word = fc.stringMatching(/^[a-z]{1,8}$/);
const project = fc.record({
  every: fc.constantFrom('day', 'week', '2 weeks', 'month'),
  count: fc.integer({ min: 1, max: 5 }),
  startDay: fc.integer({ min: 1, max: 20 }),
  time: fc.constantFrom('09:00', '10:30', '14:00'),
  variants: fc.array(word, { maxLength: 2 }),
  slotKeys: fc.uniqueArray(word, { maxLength: 3 }),
  campaign: word,
  added: word,
});

function repeatFile(p: { every: string; count: number; startDay: number; time: string; variants: string[] }): string {
  return [
    '---',
    `scheduledAt: 2031-01-${String(p.startDay).padStart(2, '0')} ${p.time}`,
    'targets: [photo]',
    'media: [media/cover.png]',
    `repeat: { every: ${p.every}, count: ${p.count} }`,
    ...(p.variants.length === 0 ? [] : [`variants: [${p.variants.map((v) => `"${v} {{ campaign.name }}"`).join(', ')}]`]),
    '---',
    'The {{ campaign.name }} on {{ date }}',
    '',
  ].join('\n');
}

const slotFile = (key: string) => ['---', 'scheduledAt: next-slot', 'targets: [photo]', 'media: [media/cover.png]', '---', `Slot post ${key}: {{ campaign.name }}`, ''].join('\n');

describe('calendar policies converge', () => {
  it('a plan right after apply shows no change with repeats, slots and vars, and adding a post never moves an applied one', async () => {
    const api = emulator();
    await fc.assert(
      fc.asyncProperty(project, async (p) => {
        await api.reset();
        const dir = await demoProject({ 'series/roast.md': repeatFile(p), ...Object.fromEntries(p.slotKeys.map((key) => [`slots/${key}.md`, slotFile(key)])) });
        await appendFile(join(dir, 'postsync.yaml'), [`vars: { campaign: { name: "${p.campaign}" } }`, 'slots: { photo: ["Mon 09:00", "Thu 17:30", "daily 12:00"] }', 'rules: { spacing: { minGap: 2h }, nights: { quietHours: { from: "22:00", to: "07:00" } } }', ''].join('\n'));
        await applyAndCheck(dir);
        const before = await slotTimes(dir);
        await mkdir(join(dir, 'posts/slots'), { recursive: true });
        await writeFile(join(dir, 'posts/slots', `0${p.added}.md`), slotFile(`0${p.added}`));
        await applyAndCheck(dir);
        const after = await slotTimes(dir);
        for (const [key, time] of before) expect(after.get(key)).toBe(time);
        expect(after.size).toBe(before.size + 1);
      }),
      { numRuns: 8 },
    );

    async function applyAndCheck(dir: string): Promise<void> {
      const config = await loadConfig({ cwd: dir, env: { POSTSYNC_API_KEY: DEMO_API_KEY }, flags: { apiUrl: api.baseUrl } });
      const connection = await connect(config, { ci: false });
      try {
        const plan = async () => (await buildPlan({ config, connection, state: await readStateSection(config.statePath, connection.project), prune: true, selection: null, now: new Date() })).plan;
        const first = await plan();
        expect(first.diagnostics).toEqual([]);
        const result = await applyPlan({ plan: first, client: connection.client, store: await StateStore.open(config.statePath, connection.project, { seal: connection.seal }), root: config.root });
        expect(result.failed).toEqual([]);
        const after = await plan();
        expect([hasChanges(after), after.diagnostics]).toEqual([false, []]);
      } finally {
        await connection.close();
      }
    }

    /** The remote time of each slot post, by key. */
    async function slotTimes(dir: string): Promise<Map<string, string>> {
      const state = JSON.parse(await readFile(join(dir, '.postsync/state.json'), 'utf8')) as { targets: Record<string, { posts: Record<string, { postId: string }> }> };
      const [section] = Object.values(state.targets);
      const remote = new Map(((await api.api('GET', '/posts?limit=100')).body.data.items as { id: string; scheduledAt: string }[]).map((post) => [post.id, post.scheduledAt]));
      return new Map(Object.entries(section!.posts).flatMap(([key, record]) => (key.startsWith('slots/') ? [[key, remote.get(record.postId)!]] : [])));
    }
  });
});
