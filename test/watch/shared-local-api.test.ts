import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { runCli, startCli } from '../helpers/cli.js';
import { demoProject, post } from '../e2e/project.js';
import { startWatchProcess, type WatchProcess } from './watch-process.js';

// `watch` and `apply` in two terminals, on the embedded local API (no API URL): two processes on
// one `.postsync/local-api/` store. Each must see the other's posts, and the watch's own writes
// must outlive it.

/** `12:03:04 <what happened> → <plan>`: the headline of each block watch prints. */
const headline = (text: string) => new RegExp(`\\d\\d:\\d\\d:\\d\\d ${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`);
/**
 * A re-read asked for with `r` settles on no changes: through the re-read itself, or, when the
 * watch read the remote before it saw the apply's state file, through that file's change after it.
 */
const SETTLED = /\d\d:\d\d:\d\d (remote data re-read|state file changed by another run) → no changes/;

function startWatch(dir: string, args: string[]): WatchProcess {
  const watch = startWatchProcess(['watch', '--refresh', '3600', ...args], { cwd: dir });
  onTestFinished(async () => {
    await watch.stop('SIGKILL');
  });
  return watch;
}

const files = {
  'draft.md': post({ body: 'A draft.' }),
  'launch.md': post({ body: 'We launch on Monday.', scheduledAt: '2031-03-02 09:00' }),
  'teaser.md': post({ body: 'A first look.', scheduledAt: '2031-03-01 09:00' }),
};

describe('watch beside apply on the embedded local API', () => {
  it('watch --apply-drafts sees the posts apply made, and what it applied itself outlives it', async () => {
    const dir = await demoProject(files);
    const watch = startWatch(dir, ['--apply-drafts']);
    await watch.waitFor('Drafts applied: 1 created, 0 updated; 1 media file uploaded.');
    await watch.waitFor(headline('after applying drafts → 2 to create (was 3 to create)'));

    const applied = await runCli(['apply', '--yes'], { cwd: dir });
    expect(applied.stderr).toBe('');
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain('2 created');

    // It may also have re-read the remote on its own, seeing the state file change.
    let mark = watch.mark();
    watch.send('r');
    await watch.waitFor(SETTLED, mark);
    expect(watch.stdout()).not.toContain('deleted on the remote');

    mark = watch.mark();
    await writeFile(join(dir, 'posts/draft.md'), post({ body: 'A better draft.' }));
    await watch.waitFor('Drafts applied: 0 created, 1 updated; 0 media files uploaded.', mark);
    // Killed, not stopped: what it applied is on disk already.
    await watch.stop('SIGKILL');

    const plan = await runCli(['plan', '--detailed-exitcode'], { cwd: dir });
    expect(plan.stdout).toContain('No changes.');
    expect(plan.code).toBe(0);
  });

  it('watch --calendar sees the posts of an apply killed (-9) midway and of the apply run again, and a plan then has nothing to do', async () => {
    const dir = await demoProject(files);
    const watch = startWatch(dir, ['--calendar']);
    await watch.waitFor('Stop with Ctrl-C.');

    // Killed as soon as it says it made something: the rest is still to send.
    const first = startCli(['apply', '--yes'], { cwd: dir });
    let said = '';
    first.child.stdout!.on('data', (chunk: Buffer) => {
      said += chunk.toString();
      if (/created/.test(said)) first.child.kill('SIGKILL');
    });
    expect((await first.done).signal).toBe('SIGKILL');
    const again = await runCli(['apply', '--yes'], { cwd: dir });
    expect(again.code).toBe(0);

    const mark = watch.mark();
    watch.send('r');
    await watch.waitFor(SETTLED, mark);
    expect(watch.stdout()).not.toContain('deleted on the remote');
    expect((await watch.stop('SIGINT')).code).toBe(0);

    const plan = await runCli(['plan', '--detailed-exitcode'], { cwd: dir });
    expect(plan.stdout).toContain('No changes.');
    expect(plan.code).toBe(0);
    const status = await runCli(['status'], { cwd: dir });
    expect(status.stdout).not.toContain('gone');
  });

  it('two applies started at once: one applies, the other is refused by the state lock or finds nothing left, and the posts stay', async () => {
    const dir = await demoProject({ 'one.md': files['launch.md'], 'two.md': files['teaser.md'] });
    const runs = await Promise.all([runCli(['apply', '--yes'], { cwd: dir }), runCli(['apply', '--yes'], { cwd: dir })]);
    // On a busy machine the first may finish before the second starts: then the second sees no
    // changes. Which one happens is timing; that no write is lost or doubled is the point here
    // (test/robustness/concurrent-apply.test.ts pins the lock's refusal itself).
    expect(runs.some((run) => run.code === 0)).toBe(true);
    for (const refused of runs.filter((run) => run.code !== 0)) expect(refused.stderr).toContain('holds the state lock');
    const plan = await runCli(['plan', '--detailed-exitcode'], { cwd: dir });
    expect(plan.stdout).toContain('No changes.');
    expect(plan.code).toBe(0);
  });
});
