// Generated series kept for repeated reads: a series' columns are a pure function of the resolved
// request (its body key, which holds the day, or the minute, its last bucket reaches), so a repeat
// within the service clock's day gets the same columns without generating them again. Charging,
// limits and every check still run on each request. Bounded by bytes (least recently used go
// first), and emptied whole when the service clock enters a new day: nothing made on one day is
// served on the next.
import { DAY_MS } from "../../catalog/index.js";

export interface Columns {
  times: Float64Array;
  values: Float64Array;
}

/** 16 MB of columns: ten 60-day 1-minute series, or thousands of default daily ones. */
export const SERIES_CACHE_BYTES = 16 * 1024 * 1024;

export class SeriesCache {
  private day = Number.NaN;
  /** Insertion order is recency: a hit moves its entry to the end. */
  private readonly entries = new Map<string, Columns>();
  private bytes = 0;
  /** Reads answered from the cache (for tests and diagnostics). */
  hits = 0;

  constructor(private readonly maxBytes = SERIES_CACHE_BYTES) {}

  /** The columns of `key` on the day of `nowMs`: kept ones, or `make()`'s (kept when they fit). */
  columns(key: string, nowMs: number, make: () => Columns): Columns {
    const day = Math.floor(nowMs / DAY_MS);
    if (day !== this.day) this.clear(day);
    const kept = this.entries.get(key);
    if (kept) {
      this.entries.delete(key);
      this.entries.set(key, kept);
      this.hits++;
      return kept;
    }
    const made = make();
    const size = made.times.byteLength + made.values.byteLength;
    // One series never takes more than a quarter of the room: a long minute series does not empty it.
    if (size <= this.maxBytes / 4) {
      this.entries.set(key, made);
      this.bytes += size;
      for (const [oldest, columns] of this.entries) {
        if (this.bytes <= this.maxBytes) break;
        this.entries.delete(oldest);
        this.bytes -= columns.times.byteLength + columns.values.byteLength;
      }
    }
    return made;
  }

  get size(): number {
    return this.entries.size;
  }

  get heldBytes(): number {
    return this.bytes;
  }

  private clear(day: number): void {
    this.entries.clear();
    this.bytes = 0;
    this.day = day;
  }
}
