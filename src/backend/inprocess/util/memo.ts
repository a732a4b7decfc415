// Bounded memo tables. Memoized values are pure functions of their keys, so evicting one only
// costs a recomputation; the bound keeps an open asset set (any ticker) from growing memory.

export class Memo<K, V> {
  private readonly map = new Map<K, V>();
  constructor(private readonly max: number) {}

  get(key: K): V | undefined {
    return this.map.get(key);
  }

  /** The cached value, or `make()` stored (evicting the oldest entry when full). */
  getOr(key: K, make: () => V): V {
    const hit = this.map.get(key);
    if (hit !== undefined) return hit;
    const value = make();
    if (this.map.size >= this.max) this.map.delete(this.map.keys().next().value as K);
    this.map.set(key, value);
    return value;
  }
}
