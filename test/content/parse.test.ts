import { describe, expect, it } from 'vitest';
import { parsePostFile } from '../../src/content/parse.js';

const bytes = (text: string) => Buffer.from(text, 'utf8');

describe('parsePostFile', () => {
  it('splits front-matter and body, keeping dates as strings', () => {
    const parsed = parsePostFile('posts/a.md', bytes('---\nscheduledAt: 2026-12-01 09:00\ndraft: false\n---\n\nHello world\n'));
    expect(parsed.diagnostics).toEqual([]);
    expect(parsed.frontMatter).toEqual({ scheduledAt: '2026-12-01 09:00', draft: false });
    expect(parsed.body.trim()).toBe('Hello world');
    expect(parsed.bodyLine).toBe(6);
    expect(parsed.locate(['draft'])).toEqual({ line: 3, column: 8 });
    expect(parsed.locate(['draft'], { key: true })).toEqual({ line: 3, column: 1 });
  });

  it('reads a file with a BOM and CRLF line endings exactly like a plain one', () => {
    const plain = parsePostFile('a.md', bytes('---\nid: x\ntargets:\n  - a\n---\nLine one\nLine two\n'));
    const windows = parsePostFile('a.md', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), bytes('---\r\nid: x\r\ntargets:\r\n  - a\r\n---\r\nLine one\r\nLine two\r\n')]));
    expect(windows.diagnostics).toEqual([]);
    expect(windows.frontMatter).toEqual(plain.frontMatter);
    expect(windows.body).toBe(plain.body);
    expect(windows.locate(['targets', 0])).toEqual(plain.locate(['targets', 0]));
  });

  it('points at the first byte that is not UTF-8', () => {
    const latin1 = Buffer.concat([bytes('---\nid: x\n---\nCaf'), Buffer.from([0xe9]), bytes(' au lait\n')]);
    const [diagnostic] = parsePostFile('posts/latin1.md', latin1).diagnostics;
    expect(diagnostic).toMatchObject({ severity: 'error', code: 'not-utf8', file: 'posts/latin1.md', line: 4, column: 4 });
    expect(diagnostic!.hint).toMatch(/UTF-8/);
  });

  it('refuses an empty file', () => {
    expect(parsePostFile('e.md', bytes('')).diagnostics).toMatchObject([{ code: 'empty-file', line: 1 }]);
    expect(parsePostFile('e.md', bytes(' \n\n')).diagnostics).toMatchObject([{ code: 'empty-file' }]);
  });

  it('takes a file without front-matter as a post text', () => {
    const parsed = parsePostFile('n.md', bytes('Just the text.\n'));
    expect(parsed.diagnostics).toEqual([]);
    expect(parsed.frontMatter).toEqual({});
    expect(parsed.body).toBe('Just the text.\n');
  });

  it('warns when the front-matter does not start on line 1', () => {
    const parsed = parsePostFile('n.md', bytes('\n---\nid: x\n---\nText'));
    expect(parsed.diagnostics).toMatchObject([{ severity: 'warning', code: 'front-matter-not-first', line: 2 }]);
  });

  it('reports an unclosed front-matter', () => {
    expect(parsePostFile('u.md', bytes('---\nid: x\nText without end')).diagnostics).toMatchObject([{ code: 'front-matter-unclosed', line: 1 }]);
  });

  it('never evaluates JavaScript front-matter', () => {
    const marker = '__postsync_evaluated__';
    const parsed = parsePostFile('js.md', bytes(`---js\n{ id: (globalThis.${marker} = true, 'x') }\n---\nText`));
    expect((globalThis as Record<string, unknown>)[marker]).toBeUndefined();
    expect(parsed.diagnostics).toMatchObject([{ code: 'front-matter-language' }]);
  });

  it('reports YAML syntax errors with the file line and column', () => {
    const parsed = parsePostFile('posts/bad.md', bytes('---\nid: x\ntargets: [a, b\ndraft: true\n---\nText'));
    expect(parsed.frontMatter).toBeUndefined();
    expect(parsed.diagnostics[0]).toMatchObject({ severity: 'error', code: 'yaml-syntax', file: 'posts/bad.md' });
    expect(parsed.diagnostics[0]!.line).toBeGreaterThanOrEqual(3);
    expect(parsed.diagnostics[0]!.hint).toBeTruthy();
  });

  it('reports duplicate keys', () => {
    const parsed = parsePostFile('d.md', bytes('---\nid: x\nid: y\n---\nText'));
    expect(parsed.diagnostics).toMatchObject([{ code: 'yaml-syntax', line: 3, column: 1 }]);
  });
});
