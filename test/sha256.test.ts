import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { equalBytes, sha256 } from "../src/backend/inprocess/sha256.js";

const reference = (text: string) => createHash("sha256").update(text, "utf8").digest();

describe("sha256", () => {
  it("gives the FIPS 180-4 digests of the standard messages", () => {
    expect(sha256("").toString("hex")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect(sha256("abc").toString("hex")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(sha256("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq").toString("hex"))
      .toBe("248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  });

  it("equals node:crypto on every length around the block and padding boundaries", () => {
    for (let n = 0; n <= 200; n++) {
      const text = randomBytes(n).toString("latin1");
      expect(sha256(text).equals(reference(text))).toBe(true);
    }
  });

  it("equals node:crypto on arbitrary strings (UTF-8, astral, lone surrogates)", () => {
    fc.assert(fc.property(fc.string({ unit: "binary", maxLength: 300 }), (text) => sha256(text).equals(reference(text))), { numRuns: 500 });
  });
});

describe("equalBytes", () => {
  it("agrees with timingSafeEqual on equal and differing digests", () => {
    const a = sha256("key-a");
    expect(equalBytes(a, Buffer.from(a))).toBe(true);
    for (let i = 0; i < 32; i++) {
      const b = Buffer.from(a);
      b[i] = b[i]! ^ (1 << (i % 8));
      expect(equalBytes(a, b)).toBe(timingSafeEqual(a, b));
      expect(equalBytes(a, b)).toBe(false);
    }
    expect(equalBytes(a, a.subarray(0, 31))).toBe(false);
  });
});
