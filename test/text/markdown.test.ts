import { describe, expect, it } from 'vitest';
import { codeBlock, inlineCode, markdownMessage, markdownText, md, withinBytes } from '../../src/text/markdown.js';

describe('the Markdown rule', () => {
  it('fences inline code with more backticks than it holds, padded where CommonMark strips a space', () => {
    expect(String(inlineCode('posts/a.md'))).toBe('`posts/a.md`');
    expect(String(inlineCode('a``b'))).toBe('```a``b```');
    expect(String(inlineCode('`x`'))).toBe('`` `x` ``');
    expect(String(inlineCode('a|b', { table: true }))).toBe('`a\\|b`');
    expect(String(inlineCode('a\nb\x1b'))).toBe('`a\\nb\\x1b`');
    expect(String(codeBlock('x ```` y', { indent: '  ' }))).toBe('  `````\n  x ```` y\n  `````');
  });

  it('unlinks mentions and refs, and escapes HTML, in text and in messages', () => {
    expect(String(markdownText('@dev #12 <b>'))).toBe('@\u200ddev #\u200d12 &lt;b&gt;');
    expect(String(markdownMessage('ask @dev: `@dev <b>` and <i>'))).toBe('ask @\u200ddev: `@dev <b>` and &lt;i&gt;');
  });

  it('keeps a message’s own code spans, and lets no backtick of its text open or close one elsewhere', () => {
    expect(String(markdownMessage('unknown field `medai`'))).toBe('unknown field `medai`');
    expect(String(markdownMessage('a ` lone <b>'))).toBe('a ` lone &lt;b&gt;');
    expect(String(markdownMessage('x \\`<b>` y'))).toBe('x \\\\`<b>` y');
    expect(String(markdownMessage('a|b\nc'))).toBe('a\\|b c');
  });

  it('keeps whole parts within a byte budget and says how many it left out', () => {
    const text = withinBytes({ head: md`H\n`, parts: [md`aaaa\n`, md`bbbb\n`, md`cccc\n`], tail: md`T\n`, maxBytes: 20, cutNote: (left) => md`+${left}\n` });
    expect(String(text)).toBe('H\naaaa\nbbbb\n+1\nT\n');
    expect(String(withinBytes({ head: md``, parts: [md`a`, md`b`], maxBytes: 100, cutNote: () => md`never` }))).toBe('ab');
  });
});
