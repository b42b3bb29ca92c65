import { describe, expect, it } from 'vitest';
import { editPost, mediaEntries, targetTexts } from '../../src/post-edit/index.js';

/** An account written as a block mapping without `options:`, and media as a block list. */
const BLOCK = [
  '---',
  'targets:',
  '  - account: video',
  '    content: "Watch it" # its own',
  '  - photo',
  'media:',
  '  - media/a.png   # first',
  '  - path: media/b.mp4',
  '    alt: A clip',
  '---',
  'Body',
  '',
].join('\n');

describe('editPost: an account option', () => {
  it('adds `options:` to an account written as a block mapping, at its keys\' indentation (no entry without an account)', () => {
    const edited = editPost(BLOCK, { kind: 'option', account: 'video', name: 'vidATitle', value: 'Launch' });
    expect(edited).toBe(BLOCK.replace('# its own\n', '# its own\n    options: { vidATitle: Launch }\n'));
    expect(editPost(edited, { kind: 'option', account: 'video', name: 'vidAMadeForKids', value: false })).toBe(BLOCK.replace('# its own\n', '# its own\n    options: { vidATitle: Launch, vidAMadeForKids: false }\n'));
  });

  it('writes a list option as a list: in its flow list, in its block list, in a new entry', () => {
    const flow = '---\ntargets:\n  - account: video\n    options: { vidATags: [news, beans] }\n---\nx\n';
    expect(editPost(flow, { kind: 'option', account: 'video', name: 'vidATags', value: ['news'] })).toBe(flow.replace('[news, beans]', '[news]'));
    expect(editPost(flow, { kind: 'option', account: 'video', name: 'vidATags', value: ['a, b', 'c'] })).toBe(flow.replace('[news, beans]', '["a, b", c]'));
    const block = '---\ntargets:\n  - account: video\n    options:\n      vidATags:\n        - news  # kept? no: the list is rewritten\n        - beans\n      vidATitle: T\n---\nx\n';
    expect(editPost(block, { kind: 'option', account: 'video', name: 'vidATags', value: ['one', 'two', 'three'] })).toBe(block.replace('        - news  # kept? no: the list is rewritten\n        - beans\n', '        - one\n        - two\n        - three\n'));
    expect(editPost('---\ntargets: [video]\n---\nx\n', { kind: 'option', account: 'video', name: 'vidATags', value: ['a'] })).toBe('---\ntargets: [{ account: video, options: { vidATags: [a] } }]\n---\nx\n');
    expect(editPost(flow, { kind: 'option', account: 'video', name: 'vidATags', value: [] })).toBe(flow.replace('[news, beans]', '[]'));
  });

  it('keeps a text with a comma a text', () => {
    const text = '---\ntargets:\n  - account: video\n    options: { vidATitle: "Roast, brew" }\n---\nx\n';
    expect(editPost(text, { kind: 'option', account: 'video', name: 'vidATitle', value: 'Roast, brew, sip' })).toBe(text.replace('"Roast, brew"', '"Roast, brew, sip"'));
  });
});

describe('editPost: an account\'s own text (content:)', () => {
  it('replaces it in its own quotes, adds it to a bare account, and removes it', () => {
    expect(editPost(BLOCK, { kind: 'target-text', account: 'video', text: 'Watch this' })).toBe(BLOCK.replace('"Watch it"', '"Watch this"'));
    expect(editPost(BLOCK, { kind: 'target-text', account: 'photo', text: 'Look' })).toBe(BLOCK.replace('  - photo\n', '  - { account: photo, content: Look }\n'));
    expect(editPost(BLOCK, { kind: 'target-text', account: 'video', text: '' })).toBe(BLOCK.replace('    content: "Watch it" # its own\n', ''));
    expect(editPost(BLOCK, { kind: 'target-text', account: 'photo', text: '' })).toBe(BLOCK);
  });

  it('writes a text of several lines as one quoted line, and removes it from a flow entry', () => {
    const flow = '---\ntargets: [{ account: photo, content: Hi, options: { link: x } }]\n---\nx\n';
    expect(editPost(flow, { kind: 'target-text', account: 'photo', text: 'One\nTwo' })).toBe(flow.replace('content: Hi', 'content: "One\\nTwo"'));
    expect(editPost(flow, { kind: 'target-text', account: 'photo', text: '' })).toBe(flow.replace(', content: Hi', ''));
  });

  it('adds it to a block mapping whose first key is on the dash line', () => {
    const block = '---\ntargets:\n  - account: video\n    options: { vidATitle: T }\n---\nx\n';
    expect(editPost(block, { kind: 'target-text', account: 'video', text: 'Own' })).toBe(block.replace('T }\n', 'T }\n    content: Own\n'));
  });
});

describe('editPost: media', () => {
  it('adds a file to a block list, a flow list, and a post without media', () => {
    expect(editPost(BLOCK, { kind: 'media-add', path: 'media/c.png' })).toBe(BLOCK.replace('    alt: A clip\n', '    alt: A clip\n  - media/c.png\n'));
    expect(editPost(BLOCK, { kind: 'media-add', path: 'media/c.png', alt: 'Beans, roasted' })).toBe(BLOCK.replace('    alt: A clip\n', '    alt: A clip\n  - { path: media/c.png, alt: "Beans, roasted" }\n'));
    expect(editPost('---\nmedia: [a.png] # one\n---\nx\n', { kind: 'media-add', path: 'media/b.png' })).toBe('---\nmedia: [a.png, media/b.png] # one\n---\nx\n');
    expect(editPost('---\nmedia: []\n---\nx\n', { kind: 'media-add', path: 'media/b.png' })).toBe('---\nmedia: [media/b.png]\n---\nx\n');
    expect(editPost('---\r\ndraft: true\r\n---\r\nx\r\n', { kind: 'media-add', path: 'media/b.png', alt: 'B' })).toBe('---\r\ndraft: true\r\nmedia: [{ path: media/b.png, alt: B }]\r\n---\r\nx\r\n');
  });

  it('sets, changes and removes alt text', () => {
    expect(editPost(BLOCK, { kind: 'media-alt', index: 0, alt: 'First' })).toBe(BLOCK.replace('media/a.png   # first', '{ path: media/a.png, alt: First }   # first'));
    expect(editPost(BLOCK, { kind: 'media-alt', index: 1, alt: 'Another clip' })).toBe(BLOCK.replace('alt: A clip', 'alt: Another clip'));
    expect(editPost(BLOCK, { kind: 'media-alt', index: 1, alt: '' })).toBe(BLOCK.replace('    alt: A clip\n', ''));
    expect(editPost('---\nmedia: [{ path: a.png, alt: A }]\n---\nx\n', { kind: 'media-alt', index: 0, alt: '' })).toBe('---\nmedia: [{ path: a.png }]\n---\nx\n');
    expect(editPost(BLOCK, { kind: 'media-alt', index: 0, alt: '' })).toBe(BLOCK);
  });

  it('replaces a file\'s path, keeping its alt text', () => {
    expect(editPost(BLOCK, { kind: 'media-path', index: 1, path: 'media/c.mp4' })).toBe(BLOCK.replace('path: media/b.mp4', 'path: media/c.mp4'));
    expect(editPost(BLOCK, { kind: 'media-path', index: 0, path: 'media/c.png' })).toBe(BLOCK.replace('media/a.png   #', 'media/c.png   #'));
  });

  it('removes a file: its lines, its item in a flow list, the key with the last one', () => {
    expect(editPost(BLOCK, { kind: 'media-remove', index: 1 })).toBe(BLOCK.replace('  - path: media/b.mp4\n    alt: A clip\n', ''));
    expect(editPost(BLOCK, { kind: 'media-remove', index: 0 })).toBe(BLOCK.replace('  - media/a.png   # first\n', ''));
    expect(editPost('---\nmedia: [a.png, b.png, c.png]\n---\nx\n', { kind: 'media-remove', index: 1 })).toBe('---\nmedia: [a.png, c.png]\n---\nx\n');
    expect(editPost('---\nmedia: [a.png, b.png]\n---\nx\n', { kind: 'media-remove', index: 0 })).toBe('---\nmedia: [b.png]\n---\nx\n');
    expect(editPost('---\nmedia: [a.png]\nid: x\n---\nx\n', { kind: 'media-remove', index: 0 })).toBe('---\nid: x\n---\nx\n');
  });

  it('moves a file to another place in the list', () => {
    expect(editPost(BLOCK, { kind: 'media-move', from: 1, to: 0 })).toBe(BLOCK.replace('  - media/a.png   # first\n  - path: media/b.mp4\n    alt: A clip\n', '  - path: media/b.mp4\n    alt: A clip   # first\n  - media/a.png\n'));
    expect(editPost('---\nmedia: [a.png, b.png, c.png]\n---\nx\n', { kind: 'media-move', from: 0, to: 2 })).toBe('---\nmedia: [b.png, c.png, a.png]\n---\nx\n');
  });

  it('refuses an index the list does not have, naming it', () => {
    expect(() => editPost(BLOCK, { kind: 'media-remove', index: 2 })).toThrow(/no media file 3/);
  });

  it('reads the media entries as written: path and alt text', () => {
    expect(mediaEntries(BLOCK)).toEqual([{ path: 'media/a.png' }, { path: 'media/b.mp4', alt: 'A clip' }]);
    expect(mediaEntries('---\nid: x\n---\nx\n')).toEqual([]);
    expect(mediaEntries('no front-matter')).toEqual([]);
  });
});

describe('targetTexts', () => {
  it('reads each account\'s own text by the name it is written as', () => {
    expect(targetTexts(BLOCK)).toEqual({ video: 'Watch it' });
    expect(targetTexts('---\ntargets: [photo]\n---\nx\n')).toEqual({});
  });
});
