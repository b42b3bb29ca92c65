import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { calendarAt } from '../../src/config/find-calendars.js';
import { ACTION_REF } from '../../src/init/workflow-steps.js';
import { changedCalendars } from '../../src/pipeline/changed-calendars.js';
import { git } from '../helpers/git.js';
import { testdir } from '../helpers/testdir.js';
import { initRepository } from './init-repository.js';
import { runWorkflow } from './workflow-runner.js';

/** A calendar owns its postsync.yaml, state, posts, snippets and the media its posts use: nothing else starts its jobs. */
const NOW = new Date('2026-11-21T12:00:00Z');

describe('the paths a calendar owns', () => {
  it('a pull request touching only README.md, package files and workflows at a root calendar, with no secrets, is green and plans nothing', async () => {
    const { remote, editor } = await initRepository({ now: NOW });
    await writeFile(join(editor, 'README.md'), '# Our content\n');
    await writeFile(join(editor, 'package-lock.json'), '{}\n');
    await writeFile(join(editor, '.github/dependabot.yml'), 'version: 2\n');
    await git(editor, 'add', '.');
    await git(editor, 'commit', '-q', '-m', 'Bump a dependency');
    await git(editor, 'push', '-q', 'origin', 'HEAD:dependabot/npm/x');
    const sha = await git(editor, 'rev-parse', 'HEAD');

    // Dependabot's pull request: no secrets at all.
    const runs = await runWorkflow(join(editor, '.github/workflows/postsync-plan.yml'), { workspace: await testdir(), remote, actionRef: ACTION_REF, secrets: {}, github: { sha, actor: 'dependabot[bot]', event: { pull_request: { number: 9 } } } });
    expect(runs.map((run) => `${run.job}: ${run.result?.status ?? 'skipped'}`)).toEqual(['calendars: success', 'plan: skipped']);
    expect(runs[0]!.result!.outputs.calendars).toBe('[]');

    // The same push to main starts no apply job.
    const apply = await runWorkflow(join(editor, '.github/workflows/postsync-apply.yml'), { workspace: await testdir(), remote, actionRef: ACTION_REF, secrets: {}, github: { sha, event: { before: await git(editor, 'rev-parse', 'HEAD^') } } });
    expect(apply.filter((run) => run.result !== null).map((run) => `${run.job}: ${run.result!.status}`)).toEqual(['calendars: success']);
  }, 120_000);

  it('are its config, state, posts, snippets and the media its posts name, under custom folders too', async () => {
    const root = await testdir({
      'postsync.yaml': 'timezone: UTC\ncontent: content\nsnippets: parts\n',
      'content/2027/launch.md': '---\ntargets: []\nmedia: [../../assets/launch.png, { path: photo.jpg }]\n---\nHi {{> sign }}\n',
      'content/2027/photo.jpg': 'x',
      'assets/launch.png': 'x',
      'assets/unused.png': 'x',
      'parts/sign.md': 'Bye',
      'clients/acme/postsync.yaml': 'timezone: UTC\n',
      'clients/acme/posts/a.md': '---\ntargets: []\n---\nA\n',
    });
    const calendars = [calendarAt('.'), calendarAt('clients/acme')];
    const touched = async (...paths: string[]) => (await changedCalendars(root, calendars, paths)).map((calendar) => calendar.folder);
    for (const path of ['postsync.yaml', '.postsync/state.json', 'content/2027/launch.md', 'content/2027/removed.md', 'parts/sign.md', 'assets/launch.png', 'content/2027/photo.jpg']) expect(await touched(path), path).toEqual(['.']);
    for (const path of ['README.md', 'package-lock.json', '.github/workflows/postsync-plan.yml', '.github/actions/postsync/action.yml', 'assets/unused.png', 'content/notes.txt', 'posts/old.md']) expect(await touched(path), path).toEqual([]);
    expect(await touched('README.md', 'clients/acme/posts/a.md', 'clients/acme/README.md')).toEqual(['clients/acme']);
    // A calendar whose postsync.yaml cannot be read: any of its paths touches it, so that its plan says why.
    await writeFile(join(root, 'clients/acme/postsync.yaml'), 'timezone: [\n');
    expect(await touched('clients/acme/README.md')).toEqual(['clients/acme']);
  });
});
