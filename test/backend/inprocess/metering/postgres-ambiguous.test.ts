// "Nothing charged" is exact on PostgreSQL: a loopback relay we control cuts the connection right
// after a charge is sent (it never ran), or right after it committed (its answer lost), or cuts it
// and keeps the server away for a while. The store learns each charge's fate from its token.
import { connect, createServer, type Server, type Socket } from "node:net";

import { afterAll, describe, expect, it } from "vitest";

import { dropSchema, PG_AVAILABLE, PG_URL, storeUrl, testSchema } from "../../../../harness/postgres.js";
import { parseStoreSetting, type StoreSpec, StoreUnavailableError } from "../../../../src/backend/inprocess/metering/index.js";
import { PostgresStore } from "../../../../src/backend/inprocess/metering/postgres-store.js";
import { meterKey } from "./contract.js";

/** "gone": the answer is cut and the server stays unreachable until up(). */
type Trap = "request" | "reply" | "gone" | undefined;

/** Relays to the server; `trap` cuts the next charge's connection before its request or its reply passes. */
async function relay(to: URL) {
  const sockets = new Set<Socket>();
  let refusing = false;
  let trap: Trap;
  let armed = false;
  const server: Server = createServer((client) => {
    if (refusing) return void client.destroy();
    const upstream = connect(Number(to.port || 5432), to.hostname);
    const cut = () => {
      client.destroy();
      upstream.destroy();
    };
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on("close", () => sockets.delete(s));
      s.on("error", () => undefined);
    }
    client.on("data", (d: Buffer) => {
      if (trap && d.includes("cm_charge_t")) {
        if (trap === "request") {
          trap = undefined;
          return cut();
        }
        armed = true;
        if (trap === "gone") refusing = true;
        trap = undefined;
        upstream.write(d);
        return;
      }
      upstream.write(d);
    });
    upstream.on("data", (d: Buffer) => {
      if (armed) {
        armed = false;
        return cut();
      }
      client.write(d);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = new URL(to.href);
  url.host = `127.0.0.1:${(server.address() as { port: number }).port}`;
  return {
    url: url.href,
    set(next: Trap) {
      trap = next;
    },
    down() {
      refusing = true;
      for (const s of sockets) s.destroy();
    },
    up() {
      refusing = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

const schemas: string[] = [];
afterAll(async () => {
  for (const s of schemas) await dropSchema(s);
});
function spec(url: string): Extract<StoreSpec, { kind: "postgres" }> {
  const schema = testSchema();
  schemas.push(schema);
  return parseStoreSetting(storeUrl(schema, url), "/unused") as Extract<StoreSpec, { kind: "postgres" }>;
}

describe.skipIf(!PG_AVAILABLE)("a charge whose connection is cut", () => {
  it("is served when it committed and its answer was lost, and a 503 that charged nothing when it never ran", async () => {
    const proxy = await relay(new URL(PG_URL));
    const store = await PostgresStore.open(spec(proxy.url));
    try {
      const key = meterKey(100);
      expect(await store.charge(key, 1)).toMatchObject({ ok: true, creditsRemaining: 99 });
      // Committed, answer lost: the store finds its token and the request is served as charged.
      proxy.set("reply");
      expect(await store.charge(key, 1)).toMatchObject({ ok: true, request: 1, creditsRemaining: 98 });
      expect(await store.spent(key.id)).toBe(2);
      // Never reached the server: looked up, not recorded, and the 503 says exactly that.
      proxy.set("request");
      const err = await store.charge(key, 1).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(StoreUnavailableError);
      expect((err as Error).message).toMatch(
        /lost the connection during the charge \(.*\); the charge was checked and not recorded\. Nothing was served or charged; retry shortly\./,
      );
      expect(await store.spent(key.id)).toBe(2);
      // Many cuts in a row, either way: what the callers were told is what the store holds.
      let served = 2;
      for (let i = 0; i < 20; i++) {
        proxy.set(i % 2 ? "reply" : "request");
        const outcome = await store.charge(key, 1).catch(() => undefined);
        if (outcome?.ok) served++;
      }
      expect(await store.spent(key.id)).toBe(served);
    } finally {
      await store.close();
      await proxy.close();
    }
  }, 60_000);

  it("says it does not know yet while the server stays away, and refunds the charge once it is back", async () => {
    const proxy = await relay(new URL(PG_URL));
    const store = await PostgresStore.open(spec(proxy.url));
    try {
      const key = meterKey(100);
      expect((await store.charge(key, 1)).ok).toBe(true);
      // The relay refuses new connections from the moment the charge passes: the lookup cannot reach the server.
      proxy.set("gone");
      const err = await store.charge(key, 1).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(StoreUnavailableError);
      expect((err as Error).message).toMatch(
        /stopped answering after the charge was sent \(.*\); whether it was recorded is not known yet\. Nothing was served; if it was recorded it is refunded as soon as the store answers again\./,
      );
      proxy.up();
      // Rechecked in the background: the recorded charge is refunded, once.
      let spent = await store.spent(key.id);
      for (let i = 0; spent !== 1 && i < 100; i++) {
        await new Promise((r) => setTimeout(r, 100));
        spent = await store.spent(key.id);
      }
      expect(spent).toBe(1);
      expect((await store.status(key)).creditsRemaining).toBe(99);
    } finally {
      await store.close();
      await proxy.close();
    }
  }, 60_000);
});
