import { relative, sep } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { relativePosix } from '../../src/text/paths.js';

const slow = (from: string, to: string) => relative(from, to).split(sep).join('/');

describe('relativePosix', () => {
  it('agrees with path.relative on joined, dotted, doubled, trailing and outside paths', () => {
    const root = '/work/project';
    for (const to of ['/work/project/posts/a.md', '/work/project/posts/./a.md', '/work/project/posts/../a.md', '/work/project//a.md', '/work/project/posts/', '/work/project', '/work/projects/a.md', '/work/a.md', '/work/project/.hidden/a.md', '/work/project/..a/b.md']) {
      expect(relativePosix(root, to)).toBe(slow(root, to));
    }
    expect(relativePosix('/work/project/', '/work/project/a.md')).toBe('a.md');
    expect(relativePosix('relative/root', 'relative/root/a.md')).toBe(slow('relative/root', 'relative/root/a.md'));
  });

  it('agrees with path.relative on any path below or beside a root', () => {
    const segment = fc.constantFrom('a', 'b.md', '.', '..', '', '.x', 'x..', '...');
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 5 }), fc.constantFrom('/r', '/r/s', '/'), (segments, root) => {
        const to = `${root === '/' ? '' : root}/${segments.join('/')}`;
        expect(relativePosix(root, to)).toBe(slow(root, to));
      }),
    );
  });
});
