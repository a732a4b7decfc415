// When a caller's departure is seen. A client's close that reached this host while an answer was
// being built is known only once the event loop has polled for I/O: its socket's state tells right
// after that poll (`clientGone`), its 'close' event (and a request's abort that follows it) in the
// close phase after it. Every face that hands on a charged answer waits here, the same way, before it
// decides whether the answer goes out: REST and MCP over HTTP read the socket, the in-process
// backend reads the call's signal.

/**
 * Resolves after the event loop has polled for I/O at least once: a socket's end that reached this
 * host before the call is then in its state. A timer or one setImmediate is not enough: from the poll
 * phase the check phase comes first, and a due timer runs before the next poll.
 */
export function afterPoll(): Promise<void> {
  return new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
}

/** After a poll and the close phase that follows it: a socket's 'close' event, and the aborts it causes, have run. */
export function afterCloseEvents(): Promise<void> {
  return new Promise((resolve) => setImmediate(() => setImmediate(() => setImmediate(resolve))));
}

/** An answer built in more than this long waits before it is handed on (the wait costs tens of µs). */
export const SLOW_ANSWER_MS = 2;

/**
 * Milliseconds on the monotonic clock, the one `slow` reads. Not the global `performance`: its first
 * read loads Node's perf_hooks, a one-shot call's whole cost of it.
 */
export function monotonicMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

/** Whether an answer started at `startedMs` (by `monotonicMs`) took long enough that a caller may have left meanwhile. */
export function slow(startedMs: number): boolean {
  return monotonicMs() - startedMs > SLOW_ANSWER_MS;
}
