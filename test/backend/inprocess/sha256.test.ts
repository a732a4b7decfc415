import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { equalBytes, JS_DIGESTS, sha256, sha256Hex } from "../../../src/backend/inprocess/sha256.js";

const reference = (text: string) => createHash("sha256").update(text, "utf8").digest();

describe("sha256", () => {
  it("gives node:crypto's digest for the published vectors and every padding length", () => {
    expect(sha256Hex("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect(sha256Hex("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")).toBe(
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
    );
    // 0–200 bytes: one, two and four blocks, the length field in the same block or the next.
    for (let n = 0; n <= 200; n++) expect(sha256("k".repeat(n)).equals(reference("k".repeat(n))), `${n} bytes`).toBe(true);
  });

  it("gives node:crypto's digest for any text, lone surrogates and multi-byte characters included, before and after it switches", () => {
    // More digests than are computed in JavaScript: the later ones come from node:crypto.
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 300 }), (text) => {
        expect(sha256(text).equals(reference(text))).toBe(true);
        expect(sha256Hex(text)).toBe(reference(text).toString("hex"));
      }),
      { numRuns: JS_DIGESTS * 4 },
    );
  });

  it("compares digests byte by byte, whatever their length", () => {
    const a = sha256("one");
    expect(equalBytes(a, Buffer.from(a))).toBe(true);
    for (let i = 0; i < a.length; i++) {
      const b = Buffer.from(a);
      b[i] = b[i]! ^ 1;
      expect(equalBytes(a, b)).toBe(false);
    }
    expect(equalBytes(a, a.subarray(0, 31))).toBe(false);
    expect(equalBytes(new Uint8Array(0), new Uint8Array(0))).toBe(true);
  });
});
