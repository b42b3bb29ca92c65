import { spawn } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CalendarServer } from '../../src/calendar/live-server.js';
import { PostFileEditor } from '../../src/calendar/post-file-editor.js';
import { rawRequest } from '../helpers/raw-request.js';
import { testdir } from '../helpers/testdir.js';

/**
 * Another process of the machine swaps `folder` for a symbolic link to `outside` and back, as fast
 * as it can, until killed: moved aside, the link put in its place, the link removed, moved back.
 * A folder the editor makes meanwhile at the name is moved away too.
 */
const SWAPPER = `
const fs = require('node:fs');
const [folder, outside] = process.argv.slice(1);
const aside = folder + '.aside';
let extra = 0;
for (;;) {
  try {
    const stats = fs.lstatSync(folder, { throwIfNoEntry: false });
    if (stats?.isSymbolicLink()) fs.unlinkSync(folder);
    else if (stats?.isDirectory()) {
      if (fs.existsSync(aside)) fs.renameSync(folder, folder + '.extra-' + ++extra);
      else { fs.renameSync(folder, aside); fs.symlinkSync(outside, folder); }
    } else if (fs.existsSync(aside)) fs.renameSync(aside, folder);
  } catch {}
}`;

/**
 * How many requests the race runs: on the code before the editor wrote through its folder's
 * descriptor, a new draft landed outside within 4 to 160 requests (15 runs; median 17).
 */
const REQUESTS = 320;
const AT_ONCE = 4;

describe('attack: a folder on the way swapped for a link while the editor writes and reads', () => {
  it('never writes a new draft outside the project, nor reads a file there, however the swaps fall', async () => {
    const outside = await testdir({ 'keep.md': 'SECRET-CONTENT\n' });
    const dir = await testdir({ 'posts/2027-03/keep.md': '---\nscheduledAt: "2027-03-01 09:00"\n---\nKeep\n' });
    const server = await CalendarServer.start({ port: 0, editor: new PostFileEditor(() => ({ root: dir, contentDir: join(dir, 'posts'), vars: {}, hashtags: {}, timezone: 'Europe/Berlin' })) });
    const token = new URL(server.url).searchParams.get('t')!;
    const origin = new URL(server.url).origin;
    const swapper = spawn(process.execPath, ['-e', SWAPPER, join(dir, 'posts/2027-03'), outside], { stdio: 'ignore' });
    const statuses = new Map<number, number>();
    const bodies: string[] = [];
    try {
      for (let sent = 0; sent < REQUESTS; sent += AT_ONCE) {
        const answers = await Promise.all(
          Array.from({ length: AT_ONCE }, (_, index) => {
            const n = sent + index;
            if (n % 4 === 3) return rawRequest(origin, `/post?file=posts%2F2027-03%2Fkeep.md&t=${token}`);
            const day = String((n % 28) + 1).padStart(2, '0');
            return rawRequest(origin, `/edit?t=${token}`, { method: 'POST', headers: { 'content-type': 'application/json', origin }, body: JSON.stringify({ action: 'new', at: `2027-03-${day} 09:00` }) });
          }),
        );
        for (const answer of answers) {
          statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
          bodies.push(answer.body);
        }
      }
    } finally {
      swapper.kill('SIGKILL');
      await server.close();
    }
    expect(await readdir(outside)).toEqual(['keep.md']);
    expect(await readFile(join(outside, 'keep.md'), 'utf8')).toBe('SECRET-CONTENT\n');
    expect(bodies.filter((body) => body.includes('SECRET'))).toEqual([]);
    // Every answer is a draft made, a file read, or a refusal that says why: never a crash.
    expect([...statuses.keys()].filter((status) => status !== 200 && status !== 400)).toEqual([]);
    expect(statuses.get(200)).toBeGreaterThan(0);
  }, 60_000);
});
