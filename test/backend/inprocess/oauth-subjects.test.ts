// The keys file's `oauth` section: each token subject (per issuer) an account with its plan, overrides
// and restriction; a default plan for subjects not listed; nothing recognised before the resource
// server turns subjects on.
import { describe, expect, it } from "vitest";

import { KeysFileError, KeyStore, LOCAL_PLAN } from "../../../src/backend/inprocess/keys.js";

const FILE = {
  plans: { free: { credits: 100, rateLimit: { requests: 10, windowSeconds: 60 } }, pro: { credits: 5000 } },
  oauth: {
    defaultPlan: "free",
    subjects: [
      { sub: "auth0|alice", plan: "pro" },
      { sub: "bob", issuer: "https://other.example.com", credits: 7 },
      { sub: "bob", credits: 9, rateLimit: { requests: 2, windowSeconds: 1 }, metrics: ["lifespan/Lth_mvrv"] },
    ],
  },
};
const ISSUER = "https://auth.example.com";

describe("oauth subjects in the keys file", () => {
  it("needs no keys when it has an oauth section, and gives each subject its plan, overrides and restriction", () => {
    const store = KeyStore.fromJson(JSON.stringify(FILE));
    expect(store.size).toBe(0);
    const accounts = store.acceptSubjects(ISSUER);
    expect(accounts.account("auth0|alice")!.record).toMatchObject({
      plan: "pro",
      credits: 5000,
      rateLimit: LOCAL_PLAN.rateLimit,
      metrics: null,
    });
    const bob = accounts.account("bob")!;
    expect(bob.record).toMatchObject({ credits: 9, rateLimit: { requests: 2, windowSeconds: 1 }, policyName: "custom" });
    expect([...bob.record.metrics!]).toEqual(["lifespan/Lth_mvrv"]);
    expect(accounts.account("zoe")!.record).toMatchObject({ plan: "free", credits: 100, rateLimit: { requests: 10, windowSeconds: 60 } });
    // The same subject of another issuer is another account.
    const other = KeyStore.fromJson(JSON.stringify(FILE)).acceptSubjects("https://other.example.com");
    expect(other.account("bob")!.record.credits).toBe(7);
    expect(other.account("bob")!.record.id).not.toBe(bob.record.id);
  });

  it("recognises a subject's credential only once subjects are accepted, and only one it handed out", () => {
    const store = KeyStore.fromJson(JSON.stringify(FILE));
    const made = KeyStore.fromJson(JSON.stringify(FILE)).acceptSubjects(ISSUER).account("zoe")!;
    expect(store.lookup(made.credential)).toBeUndefined();
    const accounts = store.acceptSubjects(ISSUER);
    expect(store.lookup(made.credential)).toBeUndefined();
    accounts.account("zoe");
    expect(store.lookup(made.credential)?.id).toBe(made.record.id);
    expect(store.lookup("oauth-subject:" + "0".repeat(64))).toBeUndefined();
  });

  it("enrols listed subjects only when there is no default plan", () => {
    const accounts = KeyStore.fromJson(JSON.stringify({ ...FILE, oauth: { subjects: FILE.oauth.subjects } })).acceptSubjects(ISSUER);
    expect(accounts.account("auth0|alice")).toBeDefined();
    expect(accounts.account("zoe")).toBeUndefined();
  });

  const bad: [string, unknown, RegExp][] = [
    ["an unknown default plan", { oauth: { defaultPlan: "gold" } }, /oauth\.defaultPlan is not one of the defined plans/],
    ["an empty sub", { oauth: { subjects: [{ sub: "" }] } }, /oauth\.subjects\[0\]\.sub must be the user's subject/],
    [
      "a repeated subject",
      { oauth: { subjects: [{ sub: "a" }, { sub: "a" }] } },
      /oauth\.subjects\[1\] repeats the subject of oauth\.subjects\[0\]/,
    ],
    ["an unknown field", { oauth: { defaultplan: "free" } }, /oauth has an unknown field .*did you mean "defaultPlan"/],
    ["a non-object", { oauth: [] }, /"oauth" must be an object/],
  ];
  for (const [name, doc, message] of bad) {
    it(`refuses ${name}, naming the entry`, () => {
      expect(() => KeyStore.fromJson(JSON.stringify({ plans: FILE.plans, ...(doc as object) }))).toThrow(KeysFileError);
      expect(() => KeyStore.fromJson(JSON.stringify({ plans: FILE.plans, ...(doc as object) }))).toThrow(message);
    });
  }
});
