// Coalesces identical in-flight work: callers of the same key share one run. A caller that gives
// up leaves at once; the shared run is aborted only when every caller has left.

interface Flight<T> {
  promise: Promise<T>;
  controller: AbortController;
  waiters: number;
}

export interface Joined<T> {
  value: T;
  /** True for the caller that started the run (it alone pays for it). */
  leader: boolean;
}

export class Coalescer<T> {
  private readonly flights = new Map<string, Flight<T>>();

  run(key: string, signal: AbortSignal | undefined, task: (signal: AbortSignal) => Promise<T>): Promise<Joined<T>> {
    signal?.throwIfAborted();
    let flight = this.flights.get(key);
    // A run every caller left is winding down; a newcomer starts afresh rather than inherit its abort.
    if (flight?.controller.signal.aborted) flight = undefined;
    const leader = flight === undefined;
    if (!flight) {
      const controller = new AbortController();
      const created: Flight<T> = { controller, waiters: 0, promise: Promise.resolve() as Promise<never> };
      created.promise = (async () => {
        try {
          return await task(controller.signal);
        } finally {
          if (this.flights.get(key) === created) this.flights.delete(key);
        }
      })();
      this.flights.set(key, created);
      flight = created;
    }
    const joined = flight;
    joined.waiters++;
    return new Promise<Joined<T>>((resolve, reject) => {
      let settled = false;
      const leave = (): void => {
        if (settled) return;
        settled = true;
        signal?.removeEventListener("abort", onAbort);
        joined.waiters--;
      };
      const onAbort = (): void => {
        leave();
        if (joined.waiters === 0) joined.controller.abort(signal?.reason);
        reject(signal?.reason);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      joined.promise.then(
        (value) => {
          if (settled) return;
          leave();
          resolve({ value, leader });
        },
        (error: unknown) => {
          if (settled) return;
          leave();
          reject(error);
        },
      );
    });
  }
}
