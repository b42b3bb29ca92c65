import { spawn } from 'node:child_process';
import { appendFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, DEMO_API_KEY, startEmulator } from '../../src/emulator/index.js';
import { startTestEmulator } from '../helpers/emulator.js';
import { ACME, pngBytes, postBody, testFixture, uploadMedia } from './support.js';

const dirs: string[] = [];
async function freshDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'postsync-data-'));
  dirs.push(dir);
  return dir;
}
afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('--data persistence', () => {
  it('keeps posts, media, idempotency keys and the clock across a restart, compacting the journal', async () => {
    const dataDir = await freshDir();
    const first = await startTestEmulator({ fixture: testFixture(), dataDir });
    const media = await uploadMedia(first, pngBytes(30, 40), { kind: 'image', contentType: 'image/png' }, 'acme-full');
    const kept = await first.api('POST', '/posts', { key: 'acme-full', body: postBody(ACME.photo, { mediaIds: [media] }), headers: { 'Idempotency-Key': 'persist-1' } });
    const gone = await first.api('POST', '/posts', { key: 'acme-full', body: postBody(ACME.photo, { content: 'to delete' }) });
    await first.api('DELETE', `/posts/${gone.body.data.id}`, { key: 'acme-full' });
    const now = Date.parse((await first.advanceClock(0)).now);
    await first.api('PATCH', `/posts/${kept.body.data.id}`, { key: 'acme-full', body: { scheduledAt: new Date(now + 60_000).toISOString() } });
    const moved = await first.advanceClock(7200);
    const published = (await first.api('GET', `/posts/${kept.body.data.id}`, { key: 'acme-full' })).body.data;
    expect(published.status).toBe('published');
    await first.close();
    const linesBefore = (await readFile(join(dataDir, 'journal.jsonl'), 'utf8')).trim().split('\n').length;

    const second = await startTestEmulator({ fixture: testFixture(), dataDir });
    try {
      const again = (await second.api('GET', `/posts/${kept.body.data.id}`, { key: 'acme-full' })).body.data;
      expect({ ...again, media: again.media.map((m: any) => m.id) }).toEqual({ ...published, media: [media] });
      expect(again.media[0]).toMatchObject({ sourceAvailable: true, width: 30, height: 40 });
      expect((await fetch(again.media[0].url)).status).toBe(200);
      expect((await second.api('GET', `/posts/${gone.body.data.id}`, { key: 'acme-full' })).status).toBe(404);
      expect(Date.parse((await second.advanceClock(0)).now)).toBeGreaterThanOrEqual(Date.parse(moved.now));
      const replay = await second.api('POST', '/posts', { key: 'acme-full', body: postBody(ACME.photo, { mediaIds: [media] }), headers: { 'Idempotency-Key': 'persist-1' } });
      expect(replay.body.data.id).toBe(kept.body.data.id);
      const linesAfter = (await readFile(join(dataDir, 'journal.jsonl'), 'utf8')).trim().split('\n').length;
      expect(linesAfter).toBeLessThan(linesBefore);
    } finally {
      await second.close();
    }
  });

  it('ignores a torn last line but refuses a corrupt journal', async () => {
    const dataDir = await freshDir();
    const first = await startTestEmulator({ dataDir });
    const created = await first.api('POST', '/posts', { body: postBody(DEMO_ACCOUNTS.photo) });
    await first.close();
    await appendFile(join(dataDir, 'journal.jsonl'), '{"t":"post","p":"demo","post":{"id":"abc');
    const second = await startTestEmulator({ dataDir });
    expect((await second.api('GET', `/posts/${created.body.data.id}`)).status).toBe(200);
    await second.close();
    const text = await readFile(join(dataDir, 'journal.jsonl'), 'utf8');
    await writeFile(join(dataDir, 'journal.jsonl'), `${text}not json\n${text}`);
    await expect(startEmulator({ dataDir })).rejects.toThrow(/corrupt at line/);
  });

  it('loses no acknowledged write when the serve process is killed with SIGKILL at several points', async () => {
    const dataDir = await freshDir();
    const bin = new URL('../../dist/cli/main.js', import.meta.url).pathname;
    const created = new Set<string>();
    /** Deletes sent (one worker per post); only acknowledged ones must be gone after a kill. */
    const claimed = new Set<string>();
    const deleted = new Set<string>();
    // Each round restarts on the same journal (replayed and compacted), writes under load, and is
    // killed after a different number of acknowledged writes.
    for (const killAfter of [7, 150, 41, 96, 3]) {
      const child = spawn(process.execPath, [bin, 'serve', '--data', dataDir], { stdio: ['ignore', 'pipe', 'pipe'] });
      const firstLine = await new Promise<string>((resolve, reject) => {
        createInterface({ input: child.stdout! }).once('line', resolve);
        child.once('exit', (code) => reject(new Error(`serve exited with ${code}`)));
      });
      const exited = new Promise((resolve) => child.once('exit', resolve));
      const baseUrl = firstLine.replace(/^listening on /, '');
      expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/public\/v1$/);
      const headers = { Authorization: `Bearer ${DEMO_API_KEY}`, 'Content-Type': 'application/json' };

      let acknowledged = 0;
      let killed = false;
      const worker = async (n: number): Promise<void> => {
        for (let i = 0; !killed; i++) {
          try {
            const victim = i % 3 === 2 ? [...created].find((id) => !claimed.has(id)) : undefined;
            if (victim) {
              claimed.add(victim);
              const response = await fetch(`${baseUrl}/posts/${victim}`, { method: 'DELETE', headers });
              if (response.status === 200) {
                deleted.add(victim);
                acknowledged += 1;
              }
              continue;
            }
            const response = await fetch(`${baseUrl}/posts`, { method: 'POST', headers, body: JSON.stringify(postBody(DEMO_ACCOUNTS.photo, { content: `crash ${killAfter}-${n}-${i}` })) });
            if (response.status === 201) {
              created.add(((await response.json()) as any).data.id);
              acknowledged += 1;
            }
          } catch {
            return;
          }
        }
      };
      const workers = Array.from({ length: 8 }, (_, n) => worker(n));
      while (acknowledged < killAfter) await new Promise((resolve) => setTimeout(resolve, 2));
      killed = true;
      child.kill('SIGKILL');
      await Promise.all(workers);
      await exited;
    }

    const revived = await startTestEmulator({ dataDir });
    try {
      const ids = new Set<string>();
      let cursor: string | null = null;
      do {
        const page: any = await revived.api('GET', `/posts?limit=100&sort=oldest${cursor ? `&after=${cursor}` : ''}`);
        for (const post of page.body.data.items) ids.add(post.id);
        cursor = page.body.data.nextCursor;
      } while (cursor);
      // A post whose delete was never answered may be either way; every other one is decided.
      const lost = [...created].filter((id) => !claimed.has(id) && !ids.has(id));
      const resurrected = [...deleted].filter((id) => ids.has(id));
      expect(lost).toEqual([]);
      expect(resurrected).toEqual([]);
      expect(deleted.size).toBeGreaterThan(0);
    } finally {
      await revived.close();
    }
  }, 60_000);
});

describe('postsync serve', () => {
  it('prints the URL first and exits 0 on SIGTERM', async () => {
    const bin = new URL('../../dist/cli/main.js', import.meta.url).pathname;
    const child = spawn(process.execPath, [bin, 'serve', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
    const line = String((await lines.next()).value);
    expect(line).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+\/public\/v1$/);
    // The second line: the token a state-changing control request sends (X-Postsync-Token).
    const token = /^control token: ([\w-]{32,})$/.exec(String((await lines.next()).value))?.[1];
    expect(token).toBeDefined();
    const origin = new URL(line.slice('listening on '.length)).origin;
    const reset = (headers: Record<string, string>) => fetch(`${origin}/_emulator/reset`, { method: 'POST', headers });
    expect((await reset({})).status).toBe(403);
    expect((await reset({ 'X-Postsync-Token': token! })).status).toBe(200);
    const session = await fetch(`${line.slice('listening on '.length)}/auth/session`, { headers: { Authorization: `Bearer ${DEMO_API_KEY}` } });
    expect(((await session.json()) as any).data.project.id).toBe('demo');
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const code = await exited;
    expect(code).toBe(0);
  });

  it('reports a bad flag value without a stack trace', async () => {
    const bin = new URL('../../dist/cli/main.js', import.meta.url).pathname;
    const child = spawn(process.execPath, [bin, 'serve', '--chaos', 'rate=9'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (chunk) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    expect(stderr).toContain('rate must be a number from 0 to 1');
    expect(stderr).not.toContain('    at ');
  });
});
