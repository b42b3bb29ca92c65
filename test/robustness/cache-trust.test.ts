import { readdir, readFile, utimes, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, DEMO_API_KEY } from '../../src/emulator/index.js';
import { writtenPageModel } from '../calendar/fixtures.js';
import { runCli } from '../helpers/cli.js';
import { useEmulator } from '../helpers/emulator.js';
import { git } from '../helpers/git.js';
import { testdir } from '../helpers/testdir.js';

/**
 * `.postsync/cache` is written by this machine only. What a commit puts there (a pull request can
 * add any file) is not read, and what is read never reaches the calendar page unescaped.
 */
const emulator = useEmulator();

const TEXT = 'Hello from the file';
const SCRIPT = '</script><script>document.title=1</script>';

async function project(): Promise<string> {
  const dir = await testdir({
    'postsync.yaml': `timezone: UTC\naccounts:\n  photo: ${DEMO_ACCOUNTS.photo}\n`,
    'media/cover.png': await readFile(new URL('../../examples/media/cover.png', import.meta.url)),
    'posts/hello.md': `---\nscheduledAt: 2027-03-01 09:00\ntargets: [photo]\nmedia: [media/cover.png]\n---\n${TEXT}\n`,
  });
  // Files older than a couple of seconds: their stamps vouch for their bytes, so a warm run takes their readings from the cache.
  const past = new Date(Date.now() - 3_600_000);
  for (const file of ['posts/hello.md', 'media/cover.png']) await utimes(join(dir, file), past, past);
  return dir;
}

function calendar(dir: string, ...args: string[]) {
  return runCli(['-C', dir, '--api-url', emulator().baseUrl, 'calendar', ...args], { cwd: dir, env: { POSTSYNC_API_KEY: DEMO_API_KEY } });
}

/** Writes the reading the cache keeps of the post with `text` instead of the file's. */
async function plantText(dir: string, text: string): Promise<void> {
  const path = join(dir, '.postsync/cache/posts.json');
  const kept = await readFile(path, 'utf8');
  expect(kept).toContain(TEXT);
  await writeFile(path, kept.replace(TEXT, text));
}

async function snapshot(dir: string): Promise<Record<string, string>> {
  const files = (await readdir(dir)).sort();
  return Object.fromEntries(await Promise.all(files.map(async (file) => [file, await readFile(join(dir, file), 'utf8')] as const)));
}

describe('the cache and the calendar page', () => {
  it('escapes a post text planted in the cache: the page shows it as text, no element ends early', async () => {
    const dir = await project();
    expect((await calendar(dir, '--out', 'first')).code).toBe(0);
    await plantText(dir, SCRIPT);
    const result = await calendar(dir, '--out', 'second');
    expect(result.code, result.stderr).toBe(0);
    const page = await readFile(join(dir, 'second/index.html'), 'utf8');
    expect(page).not.toContain('<script>document.title');
    // Taken from the cache (it was read), and shown as the text it is.
    const model = await writtenPageModel(join(dir, 'second/index.html'));
    expect(model.posts.map((post) => post.text)).toEqual([SCRIPT]);
  });

  it('never takes a media file outside the project that a reading in the cache names: the post file is read again', async () => {
    const dir = await project();
    expect((await calendar(dir, '--out', 'first')).code).toBe(0);
    const outside = await testdir({ 'secret.png': await readFile(new URL('../../examples/media/cover.png', import.meta.url)) });
    const path = join(dir, '.postsync/cache/posts.json');
    const kept = await readFile(path, 'utf8');
    expect(kept).toContain('"media/cover.png"');
    await writeFile(path, kept.replaceAll('"media/cover.png"', JSON.stringify(relative(dir, join(outside, 'secret.png')))));
    const result = await calendar(dir, '--out', 'second');
    expect(result.code, result.stderr).toBe(0);
    const model = await writtenPageModel(join(dir, 'second/index.html'));
    expect(model.posts.flatMap((post) => post.media.map((media) => media.path))).toEqual(['media/cover.png']);
    expect(await readdir(join(dir, 'second/media'))).toEqual(await readdir(join(dir, 'first/media')));
  });

  it('neither reads nor writes a cache git tracks, and says why on stderr', async () => {
    const dir = await project();
    expect((await calendar(dir, '--out', 'first')).code).toBe(0);
    await plantText(dir, 'Text from a commit');
    await git(dir, 'init', '-q');
    await git(dir, 'add', 'postsync.yaml', 'posts', 'media');
    await git(dir, 'add', '-f', '.postsync/cache/posts.json');
    await git(dir, 'commit', '-q', '-m', 'a pull request');
    const before = await snapshot(join(dir, '.postsync/cache'));
    await writeFile(join(dir, 'posts/second.md'), '---\ntargets: [photo]\nmedia: [media/cover.png]\n---\nA draft\n');
    // Old enough for its stamp to vouch for it: a run that may use the cache keeps its reading.
    await utimes(join(dir, 'posts/second.md'), new Date(Date.now() - 3_600_000), new Date(Date.now() - 3_600_000));

    const result = await calendar(dir, '--out', 'second');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe(`postsync: the cache is not used this run: git tracks files under ${join(dir, '.postsync/cache')}, which only this machine may write (untrack them: git rm -r --cached '${join(dir, '.postsync/cache')}')\n`);
    const model = await writtenPageModel(join(dir, 'second/index.html'));
    expect(model.posts.map((post) => post.text).sort()).toEqual(['A draft', TEXT]);
    expect(await snapshot(join(dir, '.postsync/cache'))).toEqual(before);

    // Untracked again, the cache is used as before.
    await git(dir, 'rm', '-q', '-r', '--cached', '.postsync/cache');
    const again = await calendar(dir, '--out', 'third');
    expect(again.stderr).toBe('');
    expect(await snapshot(join(dir, '.postsync/cache'))).not.toEqual(before);
  });
});
