// The body cache itself, in a module of its own: lru-cache is loaded only by a service that keeps
// bodies (the REST face's), not by every process that serves a request.
import { LRUCache } from "lru-cache";

import type { BodyCache } from "./body-cache.js";

/** An LRU of at most `bytes`; one huge body must not flush every small one, so an entry may take a quarter. */
export function createBodyCache(bytes: number): BodyCache {
  return new LRUCache<string, Buffer>({ maxSize: bytes, maxEntrySize: Math.ceil(bytes / 4), sizeCalculation: (b) => b.length + 64 });
}
