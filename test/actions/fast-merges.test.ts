import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { demoFixture } from '../../src/emulator/index.js';
import { ACTION_REF } from '../../src/init/workflow-steps.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { runCli } from '../helpers/cli.js';
import { git, gitEnv } from '../helpers/git.js';
import { testdir } from '../helpers/testdir.js';
import { initRepository } from './init-repository.js';
import { homeRef, mergePush, protectMain, remoteState, STATE_HOMES, useHome, type StateHome } from './state-homes.js';
import { runWorkflow, type WorkflowJobRun } from './workflow-runner.js';

/**
 * Merges that land faster than the apply workflow runs, with the state in either home: the file
 * committed on main, or a state branch while main is protected (only merges reach it). The
 * emulator forgets idempotency keys at once (--idempotency-ttl 0), as a service does after a day:
 * a run that planned from a state lacking an earlier run's posts would create them a second time,
 * and this would show.
 */

const NOW = new Date('2026-11-21T12:00:00Z');
/** Three merges show it: one run applies while the others land, the next runs take over from its state. */
const FILES = 3;

interface Repository {
  remote: string;
  home: StateHome;
  editor: string;
  workflow: string;
  /** The commit each merge pushed, in order, with the commit before it. */
  merges: { sha: string; before: string }[];
}

async function repository(home: StateHome): Promise<Repository> {
  const { remote, editor } = await initRepository({ now: NOW });
  if (home === 'branch') await protectMain(remote);
  await useHome(editor, home);
  return { remote, home, editor, workflow: join(editor, '.github/workflows/postsync-apply.yml'), merges: [] };
}

/** Lands pull request `n`: one new post file on main. */
async function merge(repo: Repository, n: number): Promise<void> {
  const before = await git(repo.editor, 'rev-parse', 'HEAD');
  await git(repo.editor, 'pull', '-q', '--rebase', 'origin', 'main');
  await mkdir(join(repo.editor, 'posts/2027-01'), { recursive: true });
  await writeFile(join(repo.editor, `posts/2027-01/post-${n}.md`), `---\ntargets: []\n---\nPost number ${n}.\n`);
  await git(repo.editor, 'add', '.');
  await git(repo.editor, 'commit', '-q', '-m', `Merge pull request #${n}`);
  await mergePush(repo.editor, '-q', 'origin', 'HEAD:main');
  repo.merges.push({ sha: await git(repo.editor, 'rev-parse', 'HEAD'), before });
}

function apply(repo: Repository, emulator: TestEmulator, index: number, beforeStep?: (name: string) => Promise<void>): Promise<WorkflowJobRun[]> {
  const { sha, before } = repo.merges[index]!;
  return testdir().then((workspace) =>
    runWorkflow(repo.workflow, {
      workspace,
      remote: repo.remote,
      actionRef: ACTION_REF,
      secrets: { POSTSYNC_API_URL: emulator.baseUrl, POSTSYNC_API_KEY: 'demo-key' },
      github: { sha, event: { before } },
      ...(beforeStep ? { beforeStep } : {}),
    }),
  );
}

async function expectOnePostPerFile(repo: Repository, emulator: TestEmulator): Promise<void> {
  const contents = (await emulator.api('GET', '/posts?limit=100')).body.data.items.map((post: { content: string }) => post.content).sort();
  const expected = [...Array.from({ length: FILES }, (_, index) => `Post number ${index + 1}.`), expect.stringContaining('Hello from our content calendar!')].sort();
  expect(contents).toHaveLength(FILES + 1);
  expect(contents).toEqual(expect.arrayContaining(expected));
  const posts = Object.values((await remoteState(repo.remote, repo.home)).targets)[0]!.posts;
  expect(Object.keys(posts).sort()).toEqual(['2026-11/welcome', ...Array.from({ length: FILES }, (_, index) => `2027-01/post-${index + 1}`)].sort());
  const remoteIds = new Set((await emulator.api('GET', '/posts?limit=100')).body.data.items.map((post: { id: string }) => post.id));
  for (const record of Object.values(posts)) expect(remoteIds.has(record.postId)).toBe(true);
  const creates = (await emulator.requestLog()).filter((entry) => entry.method === 'POST' && entry.path === '/public/v1/posts' && entry.status === 201);
  expect(creates).toHaveLength(FILES + 1);
}

describe.each(STATE_HOMES)('the apply workflow under three merges in quick succession, with the state home %s', (home) => {
  it('with the runs GitHub keeps (the first, and the last one waiting): one remote post per file, a state in its home naming them all', async () => {
    const emulator = await startTestEmulator({ fixture: demoFixture(), idempotencyTtlSeconds: 0 });
    try {
      const repo = await repository(home);
      await merge(repo, 1);
      // Merges 2 and 3 land while the first run records its state. The workflow's queue keeps
      // run 2 waiting too; here it never runs, as if the queue were full: the last run alone
      // must still apply every merge.
      const first = await apply(repo, emulator, 0, async (name) => {
        if (name === 'Record the states') for (let n = 2; n <= FILES; n++) await merge(repo, n);
      });
      const firstCommit = first.find((run) => run.job === 'record')!.result!.steps.find((step) => step.name === 'Record the states')!;
      expect(firstCommit.status).toBe('success');
      // The file home's commit goes on top of the merges that moved main meanwhile; the merges did not move the state branch.
      expect(firstCommit.stdout).toMatch(home === 'file' ? /^Recorded the states of 1 calendar on main in one commit \(commit [0-9a-f]{12}\)\.$/m : /^Recorded the states of 1 calendar on postsync\/state in one commit \(a new branch, commit [0-9a-f]{12}\)\.$/m);
      if (home === 'file') expect(await git(repo.remote, 'rev-parse', 'main~1')).toBe(repo.merges[FILES - 1]!.sha);
      const last = await apply(repo, emulator, FILES - 1);
      const lastApply = last.find((run) => run.job === 'apply')!.result!;
      expect(lastApply.status).toBe('success');
      // It checked out the branch head, with the first run's state: it creates only posts 2 and 3.
      expect(lastApply.steps.find((step) => step.name === 'Apply')!.outputs).toMatchObject({ create: String(FILES - 1), update: '0' });
      await expectOnePostPerFile(repo, emulator);
    } finally {
      await emulator.close();
    }
  }, 180_000);

  it('with every run going through one after the other: still one post per file', async () => {
    const emulator = await startTestEmulator({ fixture: demoFixture(), idempotencyTtlSeconds: 0 });
    try {
      const repo = await repository(home);
      for (let n = 1; n <= FILES; n++) await merge(repo, n);
      for (let index = 0; index < FILES; index++) {
        const runs = await apply(repo, emulator, index);
        expect(runs.find((run) => run.job === 'apply')!.result!.status).toBe('success');
      }
      await expectOnePostPerFile(repo, emulator);
      expect(await git(repo.remote, 'log', '--format=%s', '-1', homeRef(home))).toBe('postsync: record applied posts [skip ci]');
      if (home === 'branch') expect(await git(repo.remote, 'log', '--format=%s', '-1', 'main')).toBe(`Merge pull request #${FILES}`);
    } finally {
      await emulator.close();
    }
  }, 180_000);

  it('merges a state changed in its home meanwhile entry by entry, and pushes the union', async () => {
    const emulator = await startTestEmulator({ fixture: demoFixture(), idempotencyTtlSeconds: 0 });
    try {
      const repo = await repository(home);
      await merge(repo, 1);
      // While the run applies, someone imports a post on their machine and pushes the state it wrote.
      const imported = async (name: string) => {
        if (name !== 'Record the states') return;
        const other = await testdir();
        await git(other, 'clone', '-q', repo.remote, '.');
        const created = (await emulator.api('POST', '/posts', { body: { content: 'Imported elsewhere', targets: [], mediaIds: [] } })).body.data;
        const section = { apiUrl: emulator.baseUrl, projectId: 'demo', media: {}, pending: {}, uploads: {}, posts: { 'imported/elsewhere': { postId: created.id, file: 'posts/imported/elsewhere.md', appliedHash: 'f'.repeat(64), remoteUpdatedAt: created.updatedAt, appliedAt: created.updatedAt } } };
        await mkdir(join(other, '.postsync'), { recursive: true });
        await writeFile(join(other, '.postsync/state.json'), `${JSON.stringify({ version: 1, targets: { [`${emulator.baseUrl}#demo`]: section } }, null, 2)}\n`);
        if (home === 'branch') {
          expect((await runCli(['state', 'push'], { cwd: other, env: gitEnv() })).code).toBe(0);
          return;
        }
        await git(other, 'add', '.postsync/state.json');
        await git(other, 'commit', '-q', '-m', 'Import a post');
        await git(other, 'push', '-q', 'origin', 'main');
      };
      const runs = await apply(repo, emulator, 0, imported);
      const commit = runs.find((run) => run.job === 'record')!.result!.steps.find((step) => step.name === 'Record the states')!;
      expect(commit.status).toBe('success');
      const state = await remoteState(repo.remote, home);
      expect(Object.keys(Object.values(state.targets)[0]!.posts).sort()).toEqual(['2026-11/welcome', '2027-01/post-1', 'imported/elsewhere']);
    } finally {
      await emulator.close();
    }
  }, 180_000);
});
