// No data lost: the `api` server is killed with SIGKILL in the middle of a load of charged requests,
// cycle after cycle (some kills land during start-up, while the store is being opened); after each
// restart the credits recorded as spent cover every 2xx the clients received, and the store opens.
import { readdirSync } from "node:fs";
import { Agent, request } from "node:http";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { BIG_RATE, tempDir, writeKeys } from "../../harness/service.js";
import { spawnCli, type Spawned } from "../../harness/spawn.js";

const CREDITS = 1_000_000;
const PATH = "/btc/lifespan/Lth_mvrv?startDate=2025-06-01&endDate=2025-06-02"; // 2 records: 1 credit

function get(base: string, path: string, agent: Agent): Promise<{ status: number; credits: number }> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { headers: { "x-api-key": "load" }, agent }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode ?? 0, credits: Number(res.headers["x-credits-remaining"]) }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

function start(keysFile: string, stateDir: string): Spawned {
  return spawnCli(["api", "--port", "0", "--keys-file", keysFile, "--state-dir", stateDir], { CRYPTO_METRICS_NOW: "2025-12-31T12:00:00Z" });
}

function checkState(stateDir: string): void {
  // Only the store's own files: SQLite's WAL recovery at the next start needs nothing else.
  for (const name of readdirSync(stateDir)) expect(name).toMatch(/^(metering\.sqlite(-wal|-shm)?|\.metering\.sqlite\.created)$/);
}

describe("api under SIGKILL", () => {
  it("never refunds a delivered response and always restarts on its own, over many kill cycles", async () => {
    const { dir, keysFile } = writeKeys({ keys: [{ key: "load", credits: CREDITS, rateLimit: BIG_RATE }] }, tempDir("cm-rel-crash-"));
    const stateDir = join(dir, "state");
    let delivered = 0;
    let sent = 0;
    for (let cycle = 0; cycle < 7; cycle++) {
      const proc = start(keysFile, stateDir);
      if (cycle % 3 === 2) {
        // Killed while starting: possibly mid-fold of the previous journals.
        await new Promise((r) => setTimeout(r, 150 + 60 * cycle));
        proc.child.kill("SIGKILL");
        await proc.exited;
        checkState(stateDir);
        continue;
      }
      const base = `http://${(await proc.waitForStderr(/listening on http:\/\/(\S+)/))[1]}`;
      const agent = new Agent({ keepAlive: true, maxSockets: 8 });
      let dead = false;
      const loop = async () => {
        while (!dead) {
          sent++;
          try {
            const res = await get(base, PATH, agent);
            if (res.status === 200) delivered++;
            else expect(res.status).toBe(200);
          } catch {
            return; // the server died under this request: the client never got an answer
          }
        }
      };
      const loops = Array.from({ length: 8 }, loop);
      // Under load for a while (at least 25 answers, however slow the machine), then killed.
      const target = delivered + 25;
      for (let waited = 0; delivered < target && waited < 5_000; waited += 20) await new Promise((r) => setTimeout(r, 20));
      await new Promise((r) => setTimeout(r, 50 * cycle));
      proc.child.kill("SIGKILL");
      dead = true;
      const exit = await proc.exited;
      expect(exit.signal).toBe("SIGKILL");
      await Promise.all(loops);
      agent.destroy();
      checkState(stateDir);
    }
    expect(delivered).toBeGreaterThan(100);
    // A final start reads what was recorded; a 400 shows the balance without spending.
    const proc = start(keysFile, stateDir);
    try {
      const base = `http://${(await proc.waitForStderr(/listening on http:\/\/(\S+)/))[1]}`;
      const agent = new Agent({ keepAlive: false });
      const probe = await get(base, "/btc/lifespan/Lth_mvrv?bogus=1", agent);
      expect(probe.status).toBe(400);
      const spent = CREDITS - probe.credits;
      expect(spent).toBeGreaterThanOrEqual(delivered);
      // Charged only for requests that were sent (at most those cut off mid-flight on top of the delivered ones).
      expect(spent).toBeLessThanOrEqual(sent);
    } finally {
      proc.child.kill("SIGTERM");
      await proc.exited;
    }
    checkState(stateDir);
  });
});
