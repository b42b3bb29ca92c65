import { describe, expect, it } from 'vitest';
import { audioCodecName, videoCodecName } from '../../src/media/codecs.js';
import { formatAgainstLimit, formatBytes, formatList } from '../../src/media/format.js';

describe('codec names', () => {
  it.each([
    ['avc1', 'h264'],
    ['avc3', 'h264'],
    ['hvc1', 'hevc'],
    ['hev1', 'hevc'],
    ['vp09', 'vp9'],
    ['av01', 'av1'],
    ['H.264', 'h264'],
    ['HEVC', 'hevc'],
    ['xyz1', 'xyz1'],
  ])('video %s is %s', (code, name) => expect(videoCodecName(code)).toBe(name));

  it.each([
    ['mp4a', 'aac'],
    ['Opus', 'opus'],
    ['ac-3', 'ac3'],
    ['ec-3', 'eac3'],
    ['fLaC', 'flac'],
    ['.mp3', 'mp3'],
    ['AAC', 'aac'],
  ])('audio %s is %s', (code, name) => expect(audioCodecName(code)).toBe(name));
});

describe('media number formats', () => {
  it('formats sizes in binary units', () => {
    expect([formatBytes(512), formatBytes(2048), formatBytes(1.25 * 1024 ** 2), formatBytes(3 * 1024 ** 3)]).toEqual([
      '512 bytes',
      '2 KiB',
      '1.3 MiB',
      '3 GiB',
    ]);
  });

  it('never shows a found value equal to its limit', () => {
    expect(formatAgainstLimit('seconds', 60.04, 60)).toEqual({ found: '60.04 s', limit: '60 s' });
    expect(formatAgainstLimit('seconds', 60.0004, 60)).toEqual({ found: '60.0004 s', limit: '60 s' });
    expect(formatAgainstLimit('seconds', 2.95, 3)).toEqual({ found: '2.95 s', limit: '3 s' });
    expect(formatAgainstLimit('bytes', 1024 ** 2 + 1, 1024 ** 2)).toEqual({ found: '1,048,577 bytes', limit: '1,048,576 bytes' });
  });

  it('joins lists', () => {
    expect([formatList([]), formatList(['a']), formatList(['a', 'b']), formatList(['a', 'b', 'c'], 'or')]).toEqual(['none', 'a', 'a and b', 'a, b or c']);
  });
});
