import { describe, expect, it } from 'vitest';
import { terminalPath, terminalText } from '../../src/text/terminal.js';

describe('the terminal rule', () => {
  it('writes control, bidi and zero-width characters as visible escapes, on one line', () => {
    expect(terminalText('a\nb\r\tc')).toBe('a\\nb\\r\\tc');
    expect(terminalText('\x1b[2J\x1b]0;t\x07\x7f\x9b')).toBe('\\x1b[2J\\x1b]0;t\\x07\\x7f\\x9b');
    expect(terminalText('abc\u202edef\u200b\u2066\ufeff')).toBe('abc\\u202edef\\u200b\\u2066\\ufeff');
  });

  it('leaves ordinary text as it is', () => {
    for (const text of ['posts/2026-11/welcome', 'Hello, world: 100% \\ "quoted" `code`', 'Grüße 🎉 日本語', '']) expect(terminalText(text)).toBe(text);
  });

  it('quotes a path with a space, a quote, a backslash or an unsafe character, and only then', () => {
    expect(String(terminalPath('posts/a.md'))).toBe('posts/a.md');
    expect(String(terminalPath('posts/my post.md'))).toBe('"posts/my post.md"');
    expect(String(terminalPath('posts/a\n::error::x.md'))).toBe('"posts/a\\n::error::x.md"');
    expect(String(terminalPath('posts/say "hi"\\.md'))).toBe('"posts/say \\"hi\\"\\\\.md"');
  });
});
