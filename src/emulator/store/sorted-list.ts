/** Entries per chunk before it splits; small enough that a splice inside a chunk is cheap. */
const MAX_CHUNK = 512;

/**
 * A list kept sorted by a comparator, stored as a sequence of sorted chunks (a flat B-tree), so
 * inserting or removing anywhere costs a binary search plus a splice of at most 512 entries, also
 * at 100,000 entries and in bulk. Positions are global indexes; entries must be unique under the
 * comparator.
 */
export class SortedList<T> {
  private chunks: T[][] = [];
  private count = 0;

  constructor(private readonly compare: (a: T, b: T) => number) {}

  get length(): number {
    return this.count;
  }

  first(): T | undefined {
    return this.chunks[0]?.[0];
  }

  /** Index of the first entry not less than `probe`. */
  lowerBound(probe: T): number {
    return this.globalIndex(this.locate(probe, { strict: false }));
  }

  /** Index of the first entry greater than `probe`. */
  upperBound(probe: T): number {
    return this.globalIndex(this.locate(probe, { strict: true }));
  }

  at(index: number): T | undefined {
    let rest = index;
    for (const chunk of this.chunks) {
      if (rest < chunk.length) return chunk[rest];
      rest -= chunk.length;
    }
    return undefined;
  }

  insert(item: T): void {
    if (this.chunks.length === 0) {
      this.chunks.push([item]);
      this.count = 1;
      return;
    }
    const lastChunk = this.chunks[this.chunks.length - 1] as T[];
    // Past the last entry (new posts, seeding in order): no search; a full chunk is started anew.
    if (this.compare(lastChunk[lastChunk.length - 1] as T, item) < 0) {
      if (lastChunk.length < MAX_CHUNK) lastChunk.push(item);
      else this.chunks.push([item]);
      this.count++;
      return;
    }
    const { chunk, offset } = this.locate(item, { strict: false });
    const target = this.chunks[Math.min(chunk, this.chunks.length - 1)] as T[];
    target.splice(chunk === this.chunks.length ? target.length : offset, 0, item);
    this.count++;
    if (target.length > MAX_CHUNK) {
      const at = Math.min(chunk, this.chunks.length - 1);
      this.chunks.splice(at + 1, 0, target.splice(target.length >> 1));
    }
  }

  /** Removes the entry equal to `probe` under the comparator; returns whether one was found. */
  remove(probe: T): boolean {
    const { chunk, offset } = this.locate(probe, { strict: false });
    const target = this.chunks[chunk];
    const found = target?.[offset];
    if (!target || found === undefined || this.compare(found, probe) !== 0) return false;
    target.splice(offset, 1);
    this.count--;
    if (target.length === 0) this.chunks.splice(chunk, 1);
    return true;
  }

  /** Entries from `start` towards the end (`step` 1) or towards the beginning (`step` -1). */
  *iterate(start: number, step: 1 | -1): Generator<T> {
    if (start < 0 || start >= this.count) return;
    let chunk = 0;
    let offset = start;
    while (offset >= (this.chunks[chunk] as T[]).length) offset -= (this.chunks[chunk++] as T[]).length;
    while (chunk >= 0 && chunk < this.chunks.length) {
      const items = this.chunks[chunk] as T[];
      for (; offset >= 0 && offset < items.length; offset += step) yield items[offset] as T;
      chunk += step;
      offset = step === 1 ? 0 : ((this.chunks[chunk]?.length ?? 0) - 1);
    }
  }

  clear(): void {
    this.chunks = [];
    this.count = 0;
  }

  /** Chunk and offset of the first entry >= probe (or > probe when strict); past the end when none. */
  private locate(probe: T, options: { strict: boolean }): { chunk: number; offset: number } {
    const after = (item: T): boolean => (options.strict ? this.compare(item, probe) > 0 : this.compare(item, probe) >= 0);
    let low = 0;
    let high = this.chunks.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      const chunk = this.chunks[mid] as T[];
      if (after(chunk[chunk.length - 1] as T)) high = mid;
      else low = mid + 1;
    }
    const chunk = this.chunks[low];
    if (!chunk) return { chunk: low, offset: 0 };
    let first = 0;
    let last = chunk.length;
    while (first < last) {
      const mid = (first + last) >>> 1;
      if (after(chunk[mid] as T)) last = mid;
      else first = mid + 1;
    }
    return { chunk: low, offset: first };
  }

  private globalIndex(position: { chunk: number; offset: number }): number {
    let index = position.offset;
    for (let i = 0; i < position.chunk && i < this.chunks.length; i++) index += (this.chunks[i] as T[]).length;
    return index;
  }
}
