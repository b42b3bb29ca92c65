import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readContent } from '../../src/content/read-content.js';
import { testdir } from '../helpers/testdir.js';
import { fakeMedia } from './fake-probe.js';

/**
 * What a post's text goes through between the file and the API, exactly as docs/writing-posts.md
 * ("The post text") states it: one test per statement. The behaviour is
 * JavaScript's String#trim and the UTF-8 decoding; these tests pin it, they do not choose it.
 */
const PHOTO = '6f1c2d6e-0a55-4c59-9d0f-3b8f5d1a7e01';

async function read(file: string | Buffer) {
  const root = await testdir({ 'posts/post.md': file });
  return readContent({
    config: { root, contentDir: join(root, 'posts'), timezone: 'UTC', accounts: { photo: PHOTO } },
    now: new Date('2026-01-01T00:00:00Z'),
    media: fakeMedia(),
  });
}

async function textsOf(file: string | Buffer): Promise<{ content: string; overrides: (string | undefined)[] }> {
  const { posts, diagnostics } = await read(file);
  expect(diagnostics).toEqual([]);
  expect(posts).toHaveLength(1);
  return { content: posts[0]!.shape.content, overrides: posts[0]!.shape.targets.map((target) => target.contentOverride) };
}

const body = async (text: string) => (await textsOf(`---\n---\n${text}`)).content;

describe('the post text (body)', () => {
  it('is trimmed at both ends: spaces, tabs and blank lines, also NBSP and the ideographic space', async () => {
    expect(await body('\n\n  \t Hello world \t\n\n\n')).toBe('Hello world');
    expect(await body('\u00a0Hello\u3000')).toBe('Hello');
    expect(await body('\u2028\u2029\u202f\u205f\u1680\u2000\u200a\u000b\u000cHello\u2028')).toBe('Hello');
  });

  it('keeps zero-width and other characters JavaScript does not count as white space, even at the ends', async () => {
    expect(await body('\u200bHello\u200b')).toBe('\u200bHello\u200b');
    expect(await body('\u200c\u200d\u2060\u180e\u0085Hello\u200c\u200d\u2060\u180e\u0085')).toBe('\u200c\u200d\u2060\u180e\u0085Hello\u200c\u200d\u2060\u180e\u0085');
  });

  it('drops the indentation of the first line only (a Markdown code block at the start loses it)', async () => {
    expect(await body('    first line, indented\n    second line, indented\n')).toBe('first line, indented\n    second line, indented');
  });

  it('keeps everything inside as written: trailing spaces, blank lines, tabs, Markdown', async () => {
    expect(await body('**Bold**  \n\n\n\tindented\n- a list  \n')).toBe('**Bold**  \n\n\n\tindented\n- a list');
  });

  it('is not Unicode-normalized: a decomposed é stays two code points', async () => {
    expect(await body('Cafe\u0301 and Caf\u00e9')).toBe('Cafe\u0301 and Caf\u00e9');
  });

  it('turns CRLF line endings into LF', async () => {
    expect((await textsOf('---\r\ntargets: []\r\n---\r\nLine 1\r\nLine 2\r\n\r\n')).content).toBe('Line 1\nLine 2');
  });

  it('keeps a lone CR inside the text (it is not a line break), and trims one at the ends', async () => {
    expect(await body('\rLine 1\rLine 2\r')).toBe('Line 1\rLine 2');
    // A file with only CR line endings (classic Mac OS) has no `---` line: its front-matter is not found.
    const { posts, diagnostics } = await read('---\rtargets: [photo]\r---\rText\r');
    expect(posts).toEqual([]);
    expect(diagnostics).toMatchObject([{ severity: 'error', code: 'front-matter-unclosed', file: 'posts/post.md' }]);
  });

  it('drops a UTF-8 byte order mark at the start of the file, and trims one at the ends of the text', async () => {
    expect((await textsOf(Buffer.from('\ufeff---\ntargets: [photo]\n---\nHello\n'))).content).toBe('Hello');
    expect(await body('\ufeffHello\ufeff')).toBe('Hello');
  });

  it('trims a target\u2019s own `content:` the same way, including the newline a block scalar ends with', async () => {
    const file = ['---', 'targets:', '  - account: photo', '    content: |', '      Block text', '', '---', 'Body', ''].join('\n');
    expect((await textsOf(file)).overrides).toEqual(['Block text']);
    const quoted = ['---', 'targets:', '  - account: photo', '    content: "  \u00a0Quoted\u3000 \u200b"', '---', 'Body', ''].join('\n');
    // Trimming stops at the zero-width space, so the ideographic space and the space before it stay.
    expect((await textsOf(quoted)).overrides).toEqual(['Quoted\u3000 \u200b']);
  });
});
