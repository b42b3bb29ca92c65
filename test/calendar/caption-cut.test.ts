import { describe, expect, it } from 'vitest';
import { cutCaption } from '../../src/calendar/caption-cut.js';

describe('cutCaption', () => {
  it('keeps a caption within the limit whole', () => {
    expect(cutCaption('Hello', 'characters', 5)).toEqual({ shown: 'Hello', overflow: '', length: 5 });
    expect(cutCaption('Hello', 'characters', null)).toEqual({ shown: 'Hello', overflow: '', length: 5 });
  });

  it('cuts after the limit in code points, never inside a surrogate pair', () => {
    expect(cutCaption('ab😀cd', 'characters', 3)).toEqual({ shown: 'ab😀', overflow: 'cd', length: 5 });
    // In UTF-16 units the emoji counts 2: it does not fit in 3, so it goes whole to the overflow.
    expect(cutCaption('ab😀cd', 'utf16', 3)).toEqual({ shown: 'ab', overflow: '😀cd', length: 6 });
  });

  it('cuts in UTF-8 bytes without splitting a character', () => {
    expect(cutCaption('aé€b', 'bytes', 4)).toEqual({ shown: 'aé', overflow: '€b', length: 7 });
  });

  it('counts a family emoji as one grapheme', () => {
    const family = '👨‍👩‍👧';
    expect(cutCaption(`${family}${family}x`, 'graphemes', 2)).toEqual({ shown: `${family}${family}`, overflow: 'x', length: 3 });
  });
});
