// The requests a stdio session has received and not yet answered: what the session owes before it
// may end. Input that ends (a pipe closed after its last line) or a SIGTERM ends the session only
// once these are answered, or a bound has passed.

type Id = string | number;
const keyOf = (id: Id) => `${typeof id}:${id}`;

export class Outstanding {
  private readonly owed = new Map<string, number>();
  private waiters: (() => void)[] = [];

  /** A request went to the server (or waits for it). */
  received(id: Id): void {
    const key = keyOf(id);
    this.owed.set(key, (this.owed.get(key) ?? 0) + 1);
  }

  /** A response left for `id`, or the client cancelled it (no response is owed then). */
  settled(id: Id): void {
    const key = keyOf(id);
    const n = this.owed.get(key);
    if (n === undefined) return;
    if (n > 1) this.owed.set(key, n - 1);
    else this.owed.delete(key);
    if (this.owed.size === 0) for (const wake of this.waiters.splice(0)) wake();
  }

  get size(): number {
    return this.owed.size;
  }

  /** Resolves true once nothing is owed, false after `timeoutMs` with requests still unanswered. */
  drained(timeoutMs: number): Promise<boolean> {
    if (this.owed.size === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }
}
