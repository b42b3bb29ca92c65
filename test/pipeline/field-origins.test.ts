import { readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { changeLines } from '../../cli/views/change-lines.js';
import { colours } from '../../cli/views/style.js';
import { renderPlanMarkdown } from '../../cli/views/plan-markdown.js';
import { DEMO_ACCOUNTS } from '../../src/emulator/index.js';
import type { ChangeWith, Plan } from '../../src/plan/types.js';
import { useEmulator } from '../helpers/emulator.js';
import { applied, inProcess, pending } from '../helpers/in-process.js';
import { testdir } from '../helpers/testdir.js';

const emulator = useEmulator();
const plainStyle = colours(false);

const CONFIG = [
  'timezone: Europe/Berlin',
  'accounts:',
  `  photo: ${DEMO_ACCOUNTS.photo}`,
  'vars:',
  '  campaign:',
  '    name: Winter Solstice',
  'hashtags:',
  '  coffee: "#coffee #roastery"',
  'rules:',
  '  campaign-links:',
  '    utm: { source: social, campaign: winter, append: true, domains: [acme.coffee] }',
  '',
].join('\n');

const post = (front: string[], body: string) => ['---', 'targets: [photo]', 'media: [media/cover.png]', ...front, '---', body, ''].join('\n');

/** A project whose posts each take one field from another source than their file. */
async function project(): Promise<string> {
  return testdir({
    'postsync.yaml': CONFIG,
    'media/cover.png': readFileSync(new URL('../../examples/media/cover.png', import.meta.url)),
    'snippets/signature.md': '— The Northwind team\n',
    'posts/cafe-hours.md': post(['scheduledAt: 2027-03-01 09:00'], 'Open 8 to 18 all week.\n{{> snippets/signature.md }}'),
    'posts/solstice.md': post(['scheduledAt: 2027-03-02 09:00'], 'Our {{ campaign.name }} blend is back.'),
    'posts/tags.md': post(['scheduledAt: 2027-03-03 09:00'], 'Fresh beans today {{ hashtags.coffee }}'),
    'posts/shop.md': post(['scheduledAt: 2027-03-04 09:00'], 'Order at https://acme.coffee/shop'),
    'posts/roast.md': post(['scheduledAt: 2027-03-05 09:00', 'repeat: { every: week, count: 2 }', 'variants:', '  - "Second week: a new roast."'], 'Roast of the week.'),
  });
}

async function applyAll(run: ReturnType<typeof inProcess>): Promise<void> {
  const first = await run.plan();
  expect(first.diagnostics.map((d) => `${d.file}: ${d.message}`)).toEqual([]);
  expect(applied(await run.apply())).toMatchObject({ failed: [], blocked: 0 });
  expect(pending(await run.plan())).toEqual([]);
}

/** The project applied on a fresh emulator: nothing left to do. */
async function appliedProject(): Promise<{ dir: string; run: ReturnType<typeof inProcess> }> {
  const api = emulator();
  await api.reset();
  const dir = await project();
  const run = inProcess(dir, api.baseUrl);
  await applyAll(run);
  return { dir, run };
}

async function edit(dir: string, path: string, from: string, to: string): Promise<void> {
  const file = join(dir, path);
  const text = await readFile(file, 'utf8');
  expect(text).toContain(from);
  await writeFile(file, text.replace(from, to));
}

/** The one update of a plan, the others being noops. */
function onlyUpdate(plan: Plan): ChangeWith<'update'> {
  const changes = plan.changes.filter((change) => change.action !== 'noop');
  expect(changes.map((change) => `${change.action} ${change.key}`)).toHaveLength(1);
  expect(changes[0]!.action).toBe('update');
  return changes[0] as ChangeWith<'update'>;
}

const views = (plan: Plan, update: ChangeWith<'update'>) => ({
  terminal: changeLines(update, plainStyle, { timezone: 'Europe/Berlin' }).join('\n'),
  markdown: String(renderPlanMarkdown(plan, { label: 'test', timezone: 'Europe/Berlin' })),
});

describe('every changed field says where it came from', () => {
  it('a snippet edit: content via snippets/signature.md, in the plan and in every view', async () => {
    const { dir, run } = await appliedProject();
    await writeFile(join(dir, 'snippets/signature.md'), '— The Northwind Coffee team\n');
    const plan = await run.plan();
    const update = onlyUpdate(plan);
    expect(update.key).toBe('cafe-hours');
    expect(update.origins).toEqual([{ field: 'content', source: { kind: 'snippet', path: 'snippets/signature.md' } }]);
    const { terminal, markdown } = views(plan, update);
    expect(terminal).toContain('content (via snippets/signature.md):');
    expect(markdown).toContain('`content` (via `snippets/signature.md`)');
  });

  it('a var edit: content via vars.campaign.name in postsync.yaml', async () => {
    const { dir, run } = await appliedProject();
    await edit(dir, 'postsync.yaml', 'name: Winter Solstice', 'name: Summer Solstice');
    const plan = await run.plan();
    const update = onlyUpdate(plan);
    expect(update.key).toBe('solstice');
    expect(update.origins).toEqual([{ field: 'content', source: { kind: 'var', name: 'campaign.name' } }]);
    expect(views(plan, update).terminal).toContain('content (via vars.campaign.name in postsync.yaml):');
  });

  it('a hashtag-set edit: content via hashtags.coffee in postsync.yaml', async () => {
    const { dir, run } = await appliedProject();
    await edit(dir, 'postsync.yaml', '"#coffee #roastery"', '"#coffee #beans"');
    const plan = await run.plan();
    const update = onlyUpdate(plan);
    expect(update.key).toBe('tags');
    expect(update.origins).toEqual([{ field: 'content', source: { kind: 'hashtags', name: 'coffee' } }]);
    expect(views(plan, update).markdown).toContain('`content` (via `hashtags.coffee` in `postsync.yaml`)');
  });

  it('a repeat rule edit: the occurrence that takes the variant changes via the repeat rule', async () => {
    const { dir, run } = await appliedProject();
    await edit(dir, 'posts/roast.md', 'Second week: a new roast.', 'Second week: our darkest roast.');
    const plan = await run.plan();
    const update = onlyUpdate(plan);
    expect(update.key).toBe('roast@2027-03-12');
    expect(update.origins).toEqual([{ field: 'content', source: { kind: 'repeat' } }]);
    expect(views(plan, update).terminal).toContain('content (via the repeat rule):');
  });

  it("a UTM house rule's edit: content via house rule campaign-links (UTM)", async () => {
    const { dir, run } = await appliedProject();
    await edit(dir, 'postsync.yaml', 'campaign: winter', 'campaign: spring');
    const plan = await run.plan();
    const update = onlyUpdate(plan);
    expect(update.key).toBe('shop');
    expect(update.desired.content).toBe('Order at https://acme.coffee/shop?utm_source=social&utm_campaign=spring');
    expect(update.origins).toEqual([{ field: 'content', source: { kind: 'house-rule', name: 'campaign-links', rewrite: 'utm' } }]);
    expect(views(plan, update).terminal).toContain('content (via house rule campaign-links (UTM)):');
  });

  it("a post file's edit: the file alone, not the snippet it includes", async () => {
    const { dir, run } = await appliedProject();
    await edit(dir, 'posts/cafe-hours.md', 'Open 8 to 18', 'Open 7 to 18');
    const plan = await run.plan();
    const update = onlyUpdate(plan);
    expect(update.key).toBe('cafe-hours');
    expect(update.origins).toEqual([{ field: 'content', source: { kind: 'file', path: 'posts/cafe-hours.md' } }]);
    const { terminal, markdown } = views(plan, update);
    // The file is what the change line names already: no "via" for it.
    expect(terminal).toMatch(/^ {6}content: /m);
    expect(markdown).not.toContain('via');
  });

  it('a state written before sources were recorded: a snippet edit is attributed to nothing, not to the file', async () => {
    const { dir, run } = await appliedProject();
    const statePath = join(dir, '.postsync/state.json');
    const state = JSON.parse(await readFile(statePath, 'utf8')) as { targets: Record<string, { posts: Record<string, Record<string, unknown>> }> };
    let stripped = 0;
    for (const target of Object.values(state.targets)) {
      for (const record of Object.values(target.posts)) {
        if (record.sources !== undefined) stripped += 1;
        delete record.sources;
      }
    }
    expect(stripped).toBeGreaterThan(0);
    await writeFile(statePath, `${JSON.stringify(state, null, 2)}\n`);
    expect(pending(await run.plan())).toEqual([]);
    await writeFile(join(dir, 'snippets/signature.md'), '— The Northwind Coffee team\n');
    const plan = await run.plan();
    const update = onlyUpdate(plan);
    expect(update.key).toBe('cafe-hours');
    expect(update.origins).toBeUndefined();
    expect(views(plan, update).terminal).toMatch(/^ {6}content: /m);
    // Applied once more, the record has its sources again: the next snippet edit is attributed.
    expect(applied(await run.apply())).toMatchObject({ counts: { update: 1 }, failed: [] });
    await writeFile(join(dir, 'snippets/signature.md'), '— Northwind\n');
    expect(onlyUpdate(await run.plan()).origins).toEqual([{ field: 'content', source: { kind: 'snippet', path: 'snippets/signature.md' } }]);
  });
});
