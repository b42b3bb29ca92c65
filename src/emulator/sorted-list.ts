/**
 * An array kept sorted by a comparator, with binary search. Inserts at the end (the common case:
 * new posts are the newest) are O(log n); others cost one memmove of pointers, which stays well
 * under a millisecond at 100,000 entries. Entries must be unique under the comparator.
 */
export class SortedList<T> {
  private readonly items: T[] = [];

  constructor(private readonly compare: (a: T, b: T) => number) {}

  get length(): number {
    return this.items.length;
  }

  at(index: number): T | undefined {
    return this.items[index];
  }

  first(): T | undefined {
    return this.items[0];
  }

  /** Index of the first entry not less than `probe`. */
  lowerBound(probe: T): number {
    let low = 0;
    let high = this.items.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.compare(this.items[mid] as T, probe) < 0) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  /** Index of the first entry greater than `probe`. */
  upperBound(probe: T): number {
    let low = 0;
    let high = this.items.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.compare(this.items[mid] as T, probe) <= 0) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  insert(item: T): void {
    const last = this.items[this.items.length - 1];
    if (last === undefined || this.compare(last, item) < 0) {
      this.items.push(item);
      return;
    }
    this.items.splice(this.lowerBound(item), 0, item);
  }

  /** Removes the entry equal to `probe` under the comparator; returns whether one was found. */
  remove(probe: T): boolean {
    const index = this.lowerBound(probe);
    const found = this.items[index];
    if (found === undefined || this.compare(found, probe) !== 0) return false;
    this.items.splice(index, 1);
    return true;
  }

  shift(): T | undefined {
    return this.items.shift();
  }

  clear(): void {
    this.items.length = 0;
  }
}
