import { describe, expect, it } from 'vitest';
import { codeFence, inlineCode, markdownMessage, markdownText, withinBytes } from '../../src/text/markdown.js';

describe('the Markdown rule', () => {
  it('fences inline code with more backticks than it holds, padded where CommonMark strips a space', () => {
    expect(inlineCode('posts/a.md')).toBe('`posts/a.md`');
    expect(inlineCode('a``b')).toBe('```a``b```');
    expect(inlineCode('`x`')).toBe('`` `x` ``');
    expect(inlineCode('a|b', { table: true })).toBe('`a\\|b`');
    expect(inlineCode('a\nb\x1b')).toBe('`a\\nb\\x1b`');
    expect(codeFence('x ```` y')).toBe('`````');
  });

  it('unlinks mentions and refs, and escapes HTML, in text and in messages', () => {
    expect(markdownText('@dev #12 <b>')).toBe('@\u200ddev #\u200d12 &lt;b&gt;');
    expect(markdownMessage('ask @dev: `@dev <b>` and <i>')).toBe('ask @\u200ddev: `@dev <b>` and &lt;i&gt;');
  });

  it('keeps a message’s own code spans, and lets no backtick of its text open or close one elsewhere', () => {
    expect(markdownMessage('unknown field `medai`')).toBe('unknown field `medai`');
    expect(markdownMessage('a ` lone <b>')).toBe('a ` lone &lt;b&gt;');
    expect(markdownMessage('x \\`<b>` y')).toBe('x \\\\`<b>` y');
    expect(markdownMessage('a|b\nc')).toBe('a\\|b c');
  });

  it('keeps whole parts within a byte budget and says how many it left out', () => {
    const text = withinBytes({ head: 'H\n', parts: ['aaaa\n', 'bbbb\n', 'cccc\n'], tail: 'T\n', maxBytes: 20, cutNote: (left) => `+${left}\n` });
    expect(text).toBe('H\naaaa\nbbbb\n+1\nT\n');
    expect(withinBytes({ head: '', parts: ['a', 'b'], maxBytes: 100, cutNote: () => 'never' })).toBe('ab');
  });
});
