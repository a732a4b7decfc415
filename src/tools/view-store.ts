// The view store a server keeps: the key handles are signed with and its recent answers' view data.
// Apart from view-data.ts so that a tool call without a server (the call command, the library) never
// loads lru-cache, whose first lines load Node's perf_hooks.
import { LRUCache } from "lru-cache";

import type { ViewStore } from "./view-data.js";

export function createViewStore(secret?: () => Buffer): ViewStore {
  let key: Buffer | undefined;
  return {
    secret: () => (key ??= secret?.() ?? process.getBuiltinModule("node:crypto").randomBytes(32)),
    recent: new LRUCache<string, string>({ maxSize: 32 * 1024 * 1024, sizeCalculation: (json) => Math.max(1, json.length), max: 512 }),
  };
}
