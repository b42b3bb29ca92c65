import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../src/emulator/index.js';
import { runCli } from '../helpers/cli.js';
import { CRASH, hostileWorld } from '../helpers/hostile-world.js';
import { testdir } from '../helpers/testdir.js';
/**
 * The iCalendar feed: a post text or file name cannot add events or fields to it.
 */

const world = hostileWorld();
describe('attack: a post text that would add events or fields to the iCalendar feed', () => {
  it('line breaks, ; and , in a post text and a file name stay inside their one field of their one event', async () => {
    await world.emulator.reset();
    const forged = 'Hi\r\nEND:VEVENT\r\nBEGIN:VEVENT\r\nSUMMARY:forged;x=1,2\nDTSTART:20000101T000000Z\rATTACH:https://evil.example';
    const dir = await testdir({
      'postsync.yaml': `timezone: UTC\naccounts:\n  photo: ${DEMO_ACCOUNTS.photo}\n`,
      'media/cover.png': await readFile(new URL('../../examples/media/cover.png', import.meta.url)),
      'posts/a\r\nX-FORGED:1.md': `---\nscheduledAt: 2027-03-01 09:00\ntargets: [photo]\nmedia: [media/cover.png]\n---\n${forged}\n`,
    });
    const result = await runCli(['calendar', '--out', 'page', '--ics', 'page/feed.ics'], { cwd: dir, env: world.env() });
    expect(result.stderr).not.toMatch(CRASH);
    expect(result.code, `${result.stdout}${result.stderr}`).toBe(0);
    const feed = await readFile(join(dir, 'page/feed.ics'), 'utf8');
    // Unfolded (RFC 5545 3.1), every line is one property; the forged ones never start a line.
    const lines = feed.replace(/\r\n[ \t]/g, '').split('\r\n');
    expect(lines.filter((line) => line === 'BEGIN:VEVENT')).toHaveLength(1);
    expect(lines.filter((line) => /^(SUMMARY:forged|DTSTART:2000|ATTACH|ATTENDEE|X-FORGED)/.test(line))).toEqual([]);
    expect(feed.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
  }, 120_000);
});
