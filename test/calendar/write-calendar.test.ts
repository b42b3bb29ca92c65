import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeCalendarPage } from '../../src/calendar/write-calendar.js';
import { testdir } from '../helpers/testdir.js';
import { calendarFor, launchDay } from './fixtures.js';

describe('writeCalendarPage', () => {
  it('writes the page and copies each thumbnail once: one already there (its name is a hash of its bytes) is not copied again', async () => {
    const dir = await testdir({ 'media/cover.png': 'the image' });
    const out = join(dir, 'out');
    const model = calendarFor({ posts: [launchDay()] });
    const thumbnails = new Map([['media/0123456789abcdef0123.png', join(dir, 'media/cover.png')]]);
    const written = await writeCalendarPage(out, model, thumbnails, { root: out });
    expect(written).toEqual({ page: join(out, 'index.html'), thumbnails: 1 });
    expect(await readFile(join(out, 'index.html'), 'utf8')).toContain('Launch day');
    const copied = join(out, 'media/0123456789abcdef0123.png');
    expect(await readFile(copied, 'utf8')).toBe('the image');
    const before = await stat(copied);

    await writeFile(join(dir, 'media/cover.png'), 'the image, written again');
    await writeCalendarPage(out, model, thumbnails, { root: out });
    expect((await stat(copied)).ino).toBe(before.ino);
    expect(await readFile(copied, 'utf8')).toBe('the image');
    expect(await readdir(join(out, 'media'))).toEqual(['0123456789abcdef0123.png']);
  });
});
