import { spawnSync } from "node:child_process";
import { appendFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { sha256 } from "../src/backend/inprocess/keys.js";
import { USAGE_FILE, UsageStateError, UsageStore } from "../src/backend/inprocess/usage-store.js";

const A = sha256("key-a").toString("hex");
const B = sha256("key-b").toString("hex");
const tempDir = () => mkdtempSync(join(tmpdir(), "cm-usage-"));
const journals = (dir: string) => readdirSync(dir).filter((n) => n.startsWith("journal-"));

describe("UsageStore", () => {
  it("restores spent credits after close and reopen, folding the journal into usage.json", () => {
    const dir = tempDir();
    const first = UsageStore.open(dir);
    first.record(A, 3);
    first.record(A, 2);
    first.record(B, 1);
    expect(journals(dir)).toHaveLength(1);
    first.close();
    expect(journals(dir)).toHaveLength(0);
    const snap = JSON.parse(readFileSync(join(dir, USAGE_FILE), "utf8"));
    expect(snap.spent).toEqual({ [A]: 5, [B]: 1 });
    const second = UsageStore.open(dir);
    expect(second.spent(A)).toBe(5);
    expect(second.spent(B)).toBe(1);
    second.close();
  });

  it("keeps every charge of a process killed with SIGKILL before it could close", () => {
    const dir = tempDir();
    const store = resolve("src/backend/inprocess/usage-store.ts");
    const script = `
      const { UsageStore } = await import(${JSON.stringify(store)});
      const s = UsageStore.open(${JSON.stringify(dir)});
      for (let i = 0; i < 7; i++) s.record(${JSON.stringify(A)}, 1);
      process.kill(process.pid, "SIGKILL");`;
    const child = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { encoding: "utf8" });
    expect(child.signal).toBe("SIGKILL");
    expect(journals(dir)).toHaveLength(1);
    const after = UsageStore.open(dir);
    expect(after.spent(A)).toBe(7);
    // The dead process's journal is folded into usage.json at this start.
    expect(journals(dir)).toHaveLength(0);
    after.close();
    expect(UsageStore.open(dir).spent(A)).toBe(7);
  });

  it("ignores a torn last line (its response was never sent) but refuses a corrupt record", () => {
    const dir = tempDir();
    writeFileSync(join(dir, "journal-999999-0badf00d.log"), `${A} 4\n${B} 9`);
    const s = UsageStore.open(dir);
    expect(s.spent(A)).toBe(4);
    expect(s.spent(B)).toBe(0);
    s.close();
    const dir2 = tempDir();
    writeFileSync(join(dir2, "journal-999999-0badf00d.log"), `${A} 4\nnot a record\n${A} 1\n`);
    expect(() => UsageStore.open(dir2)).toThrow(/corrupt record/);
  });

  it("refuses a corrupt usage.json instead of refunding, and leaves it in place", () => {
    const dir = tempDir();
    writeFileSync(join(dir, USAGE_FILE), "{ truncated");
    expect(() => UsageStore.open(dir)).toThrow(UsageStateError);
    expect(() => UsageStore.open(dir)).toThrow(/is corrupt .* not reset automatically/);
    expect(readFileSync(join(dir, USAGE_FILE), "utf8")).toBe("{ truncated");
    writeFileSync(join(dir, USAGE_FILE), JSON.stringify({ version: 1, spent: { [A]: -5 }, journals: {} }));
    expect(() => UsageStore.open(dir)).toThrow(/expected shape/);
  });

  it("never counts a journal twice when a compaction was cut short before deleting it", () => {
    const dir = tempDir();
    const name = "journal-999998-00c0ffee.log";
    writeFileSync(join(dir, name), `${A} 2\n${A} 3\n`);
    const bytes = readFileSync(join(dir, name)).length;
    // usage.json already holds these 5 credits and says so; the journal gained one more line since.
    writeFileSync(join(dir, USAGE_FILE), JSON.stringify({ version: 1, spent: { [A]: 5 }, journals: { [name]: bytes } }));
    appendFileSync(join(dir, name), `${A} 1\n`);
    const s = UsageStore.open(dir);
    expect(s.spent(A)).toBe(6);
    s.close();
    expect(existsSync(join(dir, name))).toBe(false);
    expect(UsageStore.open(dir).spent(A)).toBe(6);
  });

  it("lets two stores in one process share a directory without losing either's charges", () => {
    const dir = tempDir();
    const one = UsageStore.open(dir);
    const two = UsageStore.open(dir);
    one.record(A, 1);
    two.record(A, 2);
    one.close();
    two.record(B, 1);
    two.close();
    const three = UsageStore.open(dir);
    expect(three.spent(A)).toBe(3);
    expect(three.spent(B)).toBe(1);
    three.close();
  });

  it("does not break a lock whose holder has not written its pid yet, only one left that long", () => {
    const dir = tempDir();
    const name = "journal-999997-0ddba11a.log";
    writeFileSync(join(dir, name), `${A} 2\n`);
    writeFileSync(join(dir, "usage.lock"), "");
    const held = UsageStore.open(dir);
    expect(held.spent(A)).toBe(2);
    expect(existsSync(join(dir, name))).toBe(true);
    held.close();
    const minuteAgo = Date.now() / 1000 - 60;
    utimesSync(join(dir, "usage.lock"), minuteAgo, minuteAgo);
    UsageStore.open(dir).close();
    expect(existsSync(join(dir, name))).toBe(false);
    expect(UsageStore.open(dir).spent(A)).toBe(2);
  });

  it("keeps recording when a journal rotation cannot fold into usage.json (the charge is already durable)", () => {
    const dir = tempDir();
    const s = UsageStore.open(dir);
    writeFileSync(join(dir, USAGE_FILE), "{ damaged after start");
    // Past the 4 MiB rotation threshold (67-byte lines), so one record() rotates and its fold fails.
    const n = 63_000;
    for (let i = 0; i < n; i++) s.record(A, 1);
    s.record(B, 1);
    expect(s.spent(A)).toBe(n);
    // The rotated journal stays beside the one opened after it.
    expect(journals(dir)).toHaveLength(2);
    writeFileSync(join(dir, USAGE_FILE), JSON.stringify({ version: 1, spent: {}, journals: {} }));
    s.close();
    expect(journals(dir)).toHaveLength(0);
    const after = UsageStore.open(dir);
    expect(after.spent(A)).toBe(n);
    expect(after.spent(B)).toBe(1);
    after.close();
  });

  it("writes only digests to disk", () => {
    const dir = tempDir();
    const s = UsageStore.open(dir);
    s.record(sha256("cdk_test_CANARY_z").toString("hex"), 1);
    s.close();
    for (const f of readdirSync(dir)) expect(readFileSync(join(dir, f), "utf8")).not.toContain("CANARY");
  });
});
