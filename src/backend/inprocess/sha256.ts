// SHA-256 of a string's UTF-8 bytes, and a constant-time comparison of digests, from node:crypto.
// It is taken with process.getBuiltinModule where a key is hashed, not imported at module load:
// the ESM import of node:crypto also builds its facade (webcrypto included), which a one-shot
// `call` never uses.
import type * as Crypto from "node:crypto";

let crypto: typeof Crypto | undefined;
const nodeCrypto = () => (crypto ??= process.getBuiltinModule("node:crypto"));

export function sha256(text: string): Buffer {
  return nodeCrypto().createHash("sha256").update(text, "utf8").digest();
}

export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && nodeCrypto().timingSafeEqual(a, b);
}
