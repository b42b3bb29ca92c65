import { describe, expect, it } from 'vitest';
import { locatorOf } from '../../src/text/yaml-positions.js';
import { parseYamlSource, type DataPath } from '../../src/text/yaml-source.js';

const texts = [
  'id: hello\nscheduledAt: 2031-01-02 09:00\ntargets: [photo, video]\nmedia:\n  - cover.png\n  - { path: clip.mp4, alt: "a clip" }\n',
  'targets:\n  - account: video\n    options:\n      vidATitle: "Episode 1"\n      vidATags: [a, b]\n  - short\nempty:\nnull-item:\n  -\n  - x\n',
  'a: 1\na: 2\n',
  'base: &b { x: 1 }\nuse: *b\n1: one\n',
  '',
  '- top\n- [level]\n',
  'broken: [unclosed\n',
];
const paths: DataPath[] = [
  [],
  ['id'],
  ['targets'],
  ['targets', 0],
  ['targets', 1],
  ['targets', 5],
  ['targets', '0'],
  ['targets', 0, 'options'],
  ['targets', 0, 'options', 'vidATags', 1],
  ['targets', 0, 'options', 'missing', 'deeper'],
  ['media', 1, 'alt'],
  ['media', 0, 'path'],
  ['empty'],
  ['empty', 'x'],
  ['null-item', 0],
  ['null-item', 0, 'y'],
  ['a'],
  ['use', 'x'],
  [1],
  ['1'],
  [0],
  [1, 0],
  ['broken', 0],
  ['nothing'],
];

describe('locatorOf (positions as plain data)', () => {
  it('answers every path, value and key, exactly as the source it was taken from', () => {
    for (const text of texts) {
      const source = parseYamlSource(text, 'post.md');
      const positions = structuredClone(source.positions());
      const locate = locatorOf(positions);
      for (const path of paths) {
        for (const key of [false, true]) {
          expect(locate(path, { key }), `${JSON.stringify(text)} at ${JSON.stringify(path)} key ${key}`).toEqual(source.locate(path, { key }));
        }
        expect(locate(path)).toEqual(source.locate(path));
      }
    }
  });
});
