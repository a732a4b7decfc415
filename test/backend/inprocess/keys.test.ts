import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { KeysFileError, KeyStore, LOCAL_PLAN, sha256 } from "../../../src/backend/inprocess/keys.js";

const CONTRACT_EXAMPLE = {
  plans: { free: { credits: 1000, rateLimit: { requests: 30, windowSeconds: 60 } } },
  keys: [
    { key: "demo-key", plan: "free" },
    { key: "onchain-only", plan: "free", metrics: ["lifespan/Lth_mvrv", "market/metcalfe_ratio"] },
    { key: "tiny", credits: 3, rateLimit: { requests: 1000, windowSeconds: 60 } },
  ],
};

describe("KeyStore", () => {
  it("reads the keys file of the contract, with per-key overrides and restrictions", () => {
    const store = KeyStore.fromJson(JSON.stringify(CONTRACT_EXAMPLE));
    expect(store.size).toBe(3);
    expect(store.lookup("demo-key")).toMatchObject({
      plan: "free",
      credits: 1000,
      rateLimit: { requests: 30, windowSeconds: 60 },
      metrics: null,
      policyName: "free",
    });
    const restricted = store.lookup("onchain-only")!;
    expect([...restricted.metrics!]).toEqual(["lifespan/Lth_mvrv", "market/metcalfe_ratio"]);
    expect(store.lookup("tiny")).toMatchObject({ credits: 3, rateLimit: { requests: 1000, windowSeconds: 60 }, policyName: "custom" });
    expect(store.lookup("nope")).toBeUndefined();
    expect(store.lookup("DEMO-KEY")).toBeUndefined();
  });

  it("lets a key's own credits override its plan's", () => {
    const store = KeyStore.fromJson(JSON.stringify({ plans: { p: { credits: 10 } }, keys: [{ key: "k", plan: "p", credits: 2 }] }));
    expect(store.lookup("k")).toMatchObject({ credits: 2, rateLimit: LOCAL_PLAN.rateLimit });
  });

  it("holds keys only as SHA-256 digests and labels them by the digest's first 8 hex chars", () => {
    const store = KeyStore.single("cdk_test_CANARY_abc");
    const rec = store.lookup("cdk_test_CANARY_abc")!;
    expect(rec.id).toBe(sha256("cdk_test_CANARY_abc").toString("hex"));
    expect(rec.label).toBe(rec.id.slice(0, 8));
    expect(JSON.stringify({ ...rec, digest: rec.digest.toString("hex"), metrics: null })).not.toContain("CANARY");
  });

  it("without a file has one key on the generous local plan, `demo` by default", () => {
    expect(KeyStore.single().lookup("demo")).toMatchObject({ credits: 1_000_000, rateLimit: { requests: 600, windowSeconds: 60 } });
    expect(KeyStore.single("mine").lookup("demo")).toBeUndefined();
  });

  const bad: [string, unknown, RegExp][] = [
    [
      "unknown plan",
      { plans: { free: {} }, keys: [{ key: "a", plan: "pro" }] },
      /keys\[0\]\.plan is not one of the defined plans \(free\)/,
    ],
    [
      "unknown metric id",
      { keys: [{ key: "a", metrics: ["lifespan/lth_mvrv"] }] },
      /keys\[0\]\.metrics\[0\] is not an endpoint id; did you mean "lifespan\/Lth_mvrv"/,
    ],
    ["empty metrics", { keys: [{ key: "a", metrics: [] }] }, /keys\[0\]\.metrics must be a non-empty array/],
    ["negative credits", { keys: [{ key: "a", credits: -1 }] }, /keys\[0\]\.credits must be an integer/],
    ["fractional window", { keys: [{ key: "a", rateLimit: { requests: 5, windowSeconds: 0.5 } }] }, /windowSeconds must be an integer/],
    [
      "unknown field",
      { keys: [{ key: "a", credit: 5 }] },
      /keys\[0\] has an unknown field \(field 2 of the object\); did you mean "credits"\?/,
    ],
    ["duplicate key", { keys: [{ key: "a" }, { key: "a" }] }, /keys\[1\] repeats the key of keys\[0\]/],
    ["no keys", { plans: {} }, /"keys" must be a non-empty array/],
    ["key with spaces", { keys: [{ key: "a b" }] }, /keys\[0\]\.key must be/],
  ];
  for (const [name, doc, message] of bad) {
    it(`rejects ${name} with a message naming the entry`, () => {
      expect(() => KeyStore.fromJson(JSON.stringify(doc))).toThrow(KeysFileError);
      expect(() => KeyStore.fromJson(JSON.stringify(doc))).toThrow(message);
    });
  }

  it("never prints a value that may be a key, wherever the key was put by mistake", () => {
    const K = "cdk_live_CANARY_7f3a";
    const docs = [
      { keys: [{ key: K, plan: K }] },
      { plans: { free: {} }, keys: [{ key: "a", plan: K }] },
      { keys: [{ [K]: { credits: 5 } }] },
      { keys: [{ key: "a", metrics: [K] }] },
      { plans: { [`${K}!`]: {} }, keys: [{ key: "a" }] },
      { [K]: 1, keys: [{ key: "a" }] },
    ];
    for (const doc of docs) {
      const err = (() => {
        try {
          KeyStore.fromJson(JSON.stringify(doc));
        } catch (e) {
          return e as Error;
        }
      })();
      expect(err, JSON.stringify(doc)).toBeInstanceOf(KeysFileError);
      expect(err!.message).not.toContain("CANARY");
    }
  });

  it("reads a file with a byte order mark, and refuses a device or a file past the limit without reading it all", () => {
    const dir = mkdtempSync(join(tmpdir(), "cm-keys-"));
    const path = join(dir, "keys.json");
    writeFileSync(path, "\ufeff" + JSON.stringify({ keys: [{ key: "bom-key" }] }));
    expect(KeyStore.fromFile(path).lookup("bom-key")).toBeDefined();
    expect(() => KeyStore.fromFile("/dev/zero")).toThrow("keys file /dev/zero holds more than 16 MiB, past the limit for a keys file");
    expect(() => KeyStore.fromFile("/dev/urandom")).toThrow(KeysFileError);
  });

  it("rejects malformed JSON and names the file, never the keys", () => {
    const dir = mkdtempSync(join(tmpdir(), "cm-keys-"));
    const path = join(dir, "keys.json");
    writeFileSync(path, '{"keys": [{"key": "cdk_test_CANARY_x", "plan": "ghost"}]}');
    expect(() => KeyStore.fromFile(path)).toThrow(new RegExp(`${path}: keys\\[0\\]\\.plan`));
    try {
      KeyStore.fromFile(path);
    } catch (err) {
      expect((err as Error).message).not.toContain("CANARY");
    }
    writeFileSync(path, "{ not json");
    expect(() => KeyStore.fromFile(path)).toThrow(/malformed JSON/);
    expect(() => KeyStore.fromFile(join(dir, "missing.json"))).toThrow(/cannot be read \(ENOENT\)/);
  });
});
