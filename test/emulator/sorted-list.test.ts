import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SortedList } from '../../src/emulator/store/sorted-list.js';

const byNumber = (a: number, b: number): number => a - b;

describe('SortedList (chunked)', () => {
  it('matches a sorted array under random inserts and removes, across chunk splits', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 3000 })), { maxLength: 4000 }), (operations) => {
        const list = new SortedList(byNumber);
        const reference = new Set<number>();
        for (const [add, value] of operations) {
          if (add && !reference.has(value)) {
            list.insert(value);
            reference.add(value);
          } else if (!add) {
            expect(list.remove(value)).toBe(reference.delete(value));
          }
        }
        const sorted = [...reference].sort(byNumber);
        expect(list.length).toBe(sorted.length);
        expect([...list.iterate(0, 1)]).toEqual(sorted);
        expect([...list.iterate(sorted.length - 1, -1)]).toEqual([...sorted].reverse());
        for (const probe of [-1, 0, 17, 1500, 2999, 3001]) {
          expect(list.lowerBound(probe)).toBe(sorted.filter((v) => v < probe).length);
          expect(list.upperBound(probe)).toBe(sorted.filter((v) => v <= probe).length);
        }
        const middle = Math.floor(sorted.length / 2);
        expect(list.at(middle)).toBe(sorted[middle]);
        expect([...list.iterate(middle, 1)]).toEqual(sorted.slice(middle));
        expect([...list.iterate(middle, -1)]).toEqual(sorted.slice(0, middle + 1).reverse());
        expect(list.first()).toBe(sorted[0]);
      }),
      { numRuns: 40 },
    );
  });

  it('matches a sorted array when most inserts come in order (appends fill whole chunks), with removes and inserts between', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 9 }), fc.integer({ min: 0, max: 5000 })), { minLength: 600, maxLength: 3000 }), (operations) => {
        const list = new SortedList(byNumber);
        const reference = new Set<number>();
        let next = 10_000;
        for (const [kind, value] of operations) {
          if (kind < 7) {
            next += 1 + (value % 3);
            list.insert(next);
            reference.add(next);
          } else if (kind === 7 && !reference.has(value)) {
            list.insert(value);
            reference.add(value);
          } else {
            const victim = kind === 8 ? value : next - (value % 50);
            expect(list.remove(victim)).toBe(reference.delete(victim));
          }
        }
        const sorted = [...reference].sort(byNumber);
        expect([...list.iterate(0, 1)]).toEqual(sorted);
        expect([...list.iterate(sorted.length - 1, -1)]).toEqual([...sorted].reverse());
        for (const probe of [0, 2500, 10_000, next - 100, next + 1]) {
          expect(list.lowerBound(probe)).toBe(sorted.filter((v) => v < probe).length);
          expect(list.upperBound(probe)).toBe(sorted.filter((v) => v <= probe).length);
        }
      }),
      { numRuns: 30 },
    );
  });

  it('keeps 100,000 out-of-order inserts fast and ordered', () => {
    const list = new SortedList(byNumber);
    for (let i = 0; i < 100_000; i++) list.insert((i * 7919) % 100_003);
    let previous = -1;
    let count = 0;
    for (const value of list.iterate(0, 1)) {
      expect(value > previous).toBe(true);
      previous = value;
      count++;
    }
    expect(count).toBe(100_000);
  });
});
