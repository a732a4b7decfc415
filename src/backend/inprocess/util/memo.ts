// Bounded memo tables. Memoized values are pure functions of their keys, so evicting one only
// costs a recomputation; the bound keeps an open asset set (any ticker) from growing memory.
// Generators ask for the same key many times in a row (one asset's profile per point, one asset's
// closes in long runs): the last key's value answers a repeat before any lookup.

export class Memo<K, V> {
  private readonly map = new Map<K, V>();
  private hasLast = false;
  private lastKey: K | undefined;
  private lastValue: V | undefined;
  constructor(private readonly max: number) {}

  get(key: K): V | undefined {
    return this.map.get(key);
  }

  /** The cached value, or `make(key)` stored (evicting the oldest entry when full). */
  getOr(key: K, make: (key: K) => V): V {
    if (this.hasLast && key === this.lastKey) return this.lastValue as V;
    let value = this.map.get(key);
    if (value === undefined) {
      value = make(key);
      if (this.map.size >= this.max) this.map.delete(this.map.keys().next().value as K);
      this.map.set(key, value);
    }
    this.hasLast = true;
    this.lastKey = key;
    this.lastValue = value;
    return value;
  }
}
