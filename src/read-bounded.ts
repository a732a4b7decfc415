// Reads an operator-given file (a keys file, a batch; "-" or fd 0 for stdin) whole, but never more
// than a bound: /dev/zero, /dev/urandom or a runaway pipe is an error naming the limit, not a process
// that grows until the machine swaps or that never returns.
// node:fs taken, not imported (its ESM facade loads fs/promises and fs streams; see log.ts).
const { closeSync, openSync, readSync } = process.getBuiltinModule("node:fs");

export class TooLargeError extends Error {
  override readonly name = "TooLargeError";
  constructor(readonly limit: number) {
    super(`more than ${limit / 1024 / 1024} MiB`);
  }
}

const CHUNK = 64 * 1024;
const WAIT = new Int32Array(new SharedArrayBuffer(4));

/** The file's bytes as UTF-8 text; throws TooLargeError past `limit` bytes, and fs errors as they come. */
export function readBounded(source: string | 0, limit: number): string {
  const fd = source === 0 ? 0 : openSync(source, "r");
  try {
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const buf = Buffer.allocUnsafe(CHUNK);
      let n: number;
      try {
        n = readSync(fd, buf, 0, CHUNK, null);
      } catch (err) {
        // A non-blocking stdin with nothing yet: wait a little and read again.
        if ((err as NodeJS.ErrnoException).code === "EAGAIN") {
          Atomics.wait(WAIT, 0, 0, 5);
          continue;
        }
        throw err;
      }
      if (n === 0) break;
      total += n;
      if (total > limit) throw new TooLargeError(limit);
      chunks.push(n === CHUNK ? buf : buf.subarray(0, n));
    }
    return Buffer.concat(chunks, total).toString("utf8");
  } finally {
    if (fd !== 0) closeSync(fd);
  }
}
