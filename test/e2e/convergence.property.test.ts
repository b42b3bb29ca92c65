import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it, onTestFinished } from 'vitest';
import { applyPlan } from '../../src/apply/apply-plan.js';
import { loadConfig } from '../../src/config/load-config.js';
import { DEMO_API_KEY } from '../../src/emulator/index.js';
import { buildPlan } from '../../src/pipeline/build-plan.js';
import { connect } from '../../src/pipeline/connect.js';
import { hasChanges } from '../../src/plan/has-changes.js';
import { StateStore } from '../../src/state/state-store.js';
import { readState, readStateSection } from '../../src/state/state-file.js';
import { useEmulator } from '../helpers/emulator.js';
import { tidyText, variantOf, type VariantSwitches } from '../helpers/service-variants.js';
import { VariantProxy } from '../helpers/variant-proxy.js';
import { demoProject, post } from './project.js';

const emulator = useEmulator();
/** Thirty runs of several applies each, through a proxy: generous, it only catches a hang. */
const TIMEOUT_MS = 300_000;

interface FileModel {
  body: string;
  scheduled: boolean;
  withTarget: boolean;
  /** The target sets an option (`format: feed`), checked against `rules.options` when their vocabulary is known. */
  withOption: boolean;
}

type Edit =
  | { kind: 'add'; name: string; file: FileModel }
  | { kind: 'edit'; index: number; body: string }
  | { kind: 'toggle-schedule'; index: number }
  | { kind: 'rename'; index: number; name: string }
  | { kind: 'remove'; index: number }
  /** On the remote: the post is saved again as it is (a new updatedAt, nothing else), or edited (drift the file wins over). */
  | { kind: 'touch-remote'; index: number; offsetMinutes: number }
  | { kind: 'edit-remote'; index: number; body: string }
  /** The state file is lost: every post must be adopted, none created a second time. */
  | { kind: 'lose-state' };

const name = fc.stringMatching(/^[a-z]{1,6}(\/[a-z]{1,4})?$/);
// `{{` opens a template (a lone one is an error): bodies here are plain text.
const plainBody = fc.string({ minLength: 1, maxLength: 40 }).map((text) => text.replace(/[\r\n-]/g, ' ').replace(/\{(?=\{)/g, '{ ').trim() || 'x');
/** Forms a tidying service keeps otherwise: a Markdown hard break (blanks at the end of a line), a decomposed accent. */
const body = fc.tuple(plainBody, fc.constantFrom('', ':  \nnext line', ' Cafe\u0301', ' Cafe\u0301:\t\nthen')).map(([text, tail]) => `${text}${tail}`);
const fileModel = fc.record({ body, scheduled: fc.boolean(), withTarget: fc.boolean(), withOption: fc.boolean() });
const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ kind: fc.constant('add' as const), name, file: fileModel }),
  fc.record({ kind: fc.constant('edit' as const), index: fc.nat(), body }),
  fc.record({ kind: fc.constant('toggle-schedule' as const), index: fc.nat() }),
  fc.record({ kind: fc.constant('rename' as const), index: fc.nat(), name }),
  fc.record({ kind: fc.constant('remove' as const), index: fc.nat() }),
  fc.record({ kind: fc.constant('touch-remote' as const), index: fc.nat(), offsetMinutes: fc.constantFrom(0, 60, -330, 345) }),
  fc.record({ kind: fc.constant('edit-remote' as const), index: fc.nat(), body }),
  fc.record({ kind: fc.constant('lose-state' as const) }),
);

/**
 * How the service answers where the spec says "not shown": session field names, words for media
 * kinds and target statuses (known, unknown, other case), the vocabulary of `rules.options`, an
 * empty end cursor. Post statuses stay the emulator's: they say which posts may be edited.
 */
const kindWord = fc.constantFrom('image', 'video', 'clip', 'picture', 'IMAGE', 'reel', 'animated_gif');
const statusWord = fc.constantFrom('pending', 'queued', 'awaiting_approval', 'PENDING', 'scheduled');
const serviceVariant: fc.Arbitrary<VariantSwitches> = fc.record(
  {
    session: fc.constantFrom('flat' as const, 'renamed' as const),
    mediaKinds: fc.record({ image: kindWord, video: kindWord }),
    targetStatuses: fc.record({ pending: statusWord }),
    options: fc.constantFrom('schema' as const, 'list' as const),
    emptyCursor: fc.boolean(),
    // What a service may keep of what it is sent, and a scheduler touching every post.
    trimsLineEnds: fc.boolean(),
    nfc: fc.boolean(),
    minuteAt: fc.constant('+09:00' as const),
    touchesUpdatedAt: fc.boolean(),
  },
  { requiredKeys: [] },
);

/** An instant written with a numeric offset (the same instant), as another client might send it. */
function inOffset(iso: string, minutes: number): string {
  const local = new Date(Date.parse(iso) + minutes * 60_000).toISOString().slice(0, 19);
  const abs = Math.abs(minutes);
  return `${local}${minutes < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

function render(file: FileModel): string {
  return post({
    body: file.body,
    targets: !file.withTarget ? '[]' : file.withOption ? '[{ account: photo, options: { format: feed } }]' : '[photo]',
    media: file.withTarget ? '[media/cover.png]' : '[]',
    // A schedule needs a target to publish to (a content diagnostic otherwise).
    ...(file.scheduled && file.withTarget ? { scheduledAt: '2032-05-04 10:00' } : {}),
  });
}

describe('apply always converges', () => {
  it('random posts, random edit sequences and random service variants end with a zero-change plan and one remote post per file', async () => {
    const api = emulator();
    const proxy = await VariantProxy.start(api.baseUrl, variantOf('emulator', {}));
    onTestFinished(() => proxy.close());
    await fc.assert(
      fc.asyncProperty(fc.dictionary(name, fileModel, { minKeys: 1, maxKeys: 5 }), fc.array(fc.array(edit, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 3 }), serviceVariant, async (initial, rounds, switches) => {
        await api.reset();
        proxy.variant = variantOf(JSON.stringify(switches), switches);
        const files = new Map<string, FileModel>();
        const dir = await demoProject({});
        const pathOf = (key: string) => join(dir, 'posts', `${key}.md`);
        const save = async (key: string, file: FileModel) => {
          files.set(key, file);
          await mkdir(dirname(pathOf(key)), { recursive: true });
          await writeFile(pathOf(key), render(file));
        };
        const taken = (key: string) => [...files.keys()].some((other) => other === key || other.startsWith(`${key}/`) || key.startsWith(`${other}/`));
        for (const [key, file] of Object.entries(initial)) if (!taken(key)) await save(key, file);
        await applyAndCheck(dir, files, switches);
        for (const round of rounds) {
          for (const change of round) {
            const keys = [...files.keys()];
            const key = keys.length > 0 ? keys[('index' in change ? change.index : 0) % keys.length]! : undefined;
            if (change.kind === 'lose-state') {
              // Lost in step with the remote and applied at once, so every file has its exact post
              // to adopt (a file edited while the state is lost is a new post by design).
              await applyAndCheck(dir, files, switches);
              // A state already lost (lost twice in a row, with no post to record since) is lost still.
              await rm(join(dir, '.postsync/state.json'), { force: true });
              await applyAndCheck(dir, files, switches);
            }
            else if (change.kind === 'add' && !taken(change.name)) await save(change.name, change.file);
            else if (change.kind === 'edit' && key) await save(key, { ...files.get(key)!, body: change.body });
            else if (change.kind === 'toggle-schedule' && key) await save(key, { ...files.get(key)!, scheduled: !files.get(key)!.scheduled });
            else if (change.kind === 'remove' && key) {
              files.delete(key);
              await rm(pathOf(key));
            } else if ((change.kind === 'touch-remote' || change.kind === 'edit-remote') && key) {
              const state = await readState(join(dir, '.postsync/state.json'));
              const record = Object.values(Object.values(state.targets)[0]?.posts ?? {}).find((r) => r.file === `posts/${key}.md`);
              if (record) {
                const live = (await api.api('GET', `/posts/${record.postId}`)).body.data as { content: string; scheduledAt: string | null };
                const patch = change.kind === 'edit-remote'
                  ? { content: `${change.body} (edited remotely)` }
                  : { content: live.content, ...(live.scheduledAt ? { scheduledAt: inOffset(live.scheduledAt, change.offsetMinutes) } : {}) };
                expect((await api.api('PATCH', `/posts/${record.postId}`, { body: patch })).status).toBe(200);
              }
            } else if (change.kind === 'rename' && key && !taken(change.name)) {
              const file = files.get(key)!;
              files.delete(key);
              files.set(change.name, file);
              await mkdir(dirname(pathOf(change.name)), { recursive: true });
              await rename(pathOf(key), pathOf(change.name));
            }
          }
          await applyAndCheck(dir, files, switches);
        }
      }),
      { numRuns: 30 },
    );

    async function applyAndCheck(dir: string, files: Map<string, FileModel>, switches: VariantSwitches): Promise<void> {
      const config = await loadConfig({ cwd: dir, env: { POSTSYNC_API_KEY: DEMO_API_KEY }, flags: { apiUrl: proxy.baseUrl } });
      const connection = await connect(config, { ci: false });
      try {
        const store = await StateStore.open(config.statePath, connection.project, { seal: connection.seal });
        const { plan } = await buildPlan({ config, connection, state: await readStateSection(config.statePath, connection.project), prune: true, selection: null, now: new Date() });
        // A draft without accounts is not ready to schedule (a readiness warning), and fine as a draft.
        expect(plan.diagnostics.filter((d) => d.code !== 'schedule-without-targets')).toEqual([]);
        const result = await applyPlan({ plan, client: connection.client, store, root: config.root });
        expect(result.failed).toEqual([]);
        const after = await buildPlan({ config, connection, state: await readStateSection(config.statePath, connection.project), prune: true, selection: null, now: new Date() });
        expect(hasChanges(after.plan)).toBe(false);
        const remote = (await api.api('GET', '/posts?limit=100')).body.data.items as { content: string }[];
        // The service keeps its tidied form of each file's text; one post per file, none twice.
        expect(remote.map((p) => p.content).sort()).toEqual([...files.values()].map((f) => tidyText(switches, f.body)).sort());
      } finally {
        await connection.close();
      }
    }
  }, TIMEOUT_MS);
});
