// Beside the store: a malformed keys file is reported by line and column without echoing keys; a
// stdio line over the transport's cap ends the process even with a database pool open; the REST
// face checks Host and Origin like the MCP HTTP transport; resource URIs refuse repeated query
// parameters; a "__proto__" argument is refused like any unknown one.
import { writeFileSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { connect, errorOf, type Fixture, textOf } from "../../harness/mcp.js";
import { dropSchema, PG_AVAILABLE, storeUrl, testSchema } from "../../harness/postgres.js";
import { type ServiceRig, serviceRig, tempDir } from "../../harness/service.js";
import { spawnCli, StdioPeer } from "../../harness/spawn.js";
import { KeysFileError, KeyStore } from "../../src/backend/inprocess/keys.js";
import { type RestServer, startRestServer } from "../../src/backend/rest.js";

describe("a malformed keys file", () => {
  it.each([
    ['{"keys": [{"key": sk_live_SECRET42}]}', 1, 19],
    ['{\n  "keys": [\n    {"key": "sk_live_SECRET42" "plan": "free"}\n  ]\n}', 3, 32],
    ['{"keys": [{"key": "sk_live_SECRET42\n"}]}', 1, 36],
  ])("is reported by line and column, never quoting the text (%#)", (text, line, column) => {
    const path = join(tempDir("cm-keys-"), "keys.json");
    writeFileSync(path, text);
    const err = (() => {
      try {
        KeyStore.fromFile(path);
      } catch (e) {
        return e;
      }
    })() as Error;
    expect(err).toBeInstanceOf(KeysFileError);
    expect(err.message).toContain(`malformed JSON at line ${line}, column ${column}`);
    expect(err.message).not.toMatch(/SECRET|sk_live/);
  });
});

describe("a stdio line over the transport's cap", () => {
  const schema = testSchema("cmh");
  afterAll(() => dropSchema(schema));

  it("is answered with an error and the session goes on; the end of input then ends the process (exit 0), even with the shared store's connections open", async () => {
    const store: Record<string, string> = PG_AVAILABLE ? { CRYPTO_METRICS_STORE: storeUrl(schema) } : {};
    const proc = spawnCli(["stdio"], {
      CRYPTO_METRICS_STATE_DIR: tempDir("cm-stdio-cap-"),
      CRYPTO_METRICS_NOW: "2025-12-31T12:00:00Z",
      ...store,
    });
    const peer = new StdioPeer(proc);
    await peer.initialize();
    const call = await peer.request("tools/call", { name: "get_metrics_variation", arguments: { asset: "btc" } });
    expect((call["result"] as { isError?: boolean }).isError).toBeFalsy();
    peer.write(Buffer.alloc(11 * 1024 * 1024, "{"));
    peer.write("\n");
    expect((await peer.request("ping"))["result"]).toEqual({});
    expect(proc.stderrText()).toMatch(/exceeded the maximum size of 10485760 bytes/);
    proc.child.stdin.end();
    const exit = await Promise.race([proc.exited, new Promise<"hung">((r) => setTimeout(() => r("hung"), 15_000))]);
    if (exit === "hung") proc.child.kill("SIGKILL");
    expect(exit).toEqual({ code: 0, signal: null });
  }, 40_000);
});

describe("the REST face bound to loopback", () => {
  let rig: ServiceRig;
  let rest: RestServer;
  beforeAll(async () => {
    rig = serviceRig({ keys: [{ key: "k", credits: 100 }] });
    rest = await startRestServer(rig.service, { host: "127.0.0.1", port: 0 });
  });
  afterAll(async () => {
    await rest.close();
    await rig.close();
  });

  const get = (headers: Record<string, string>) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        {
          host: "127.0.0.1",
          port: rest.port,
          path: "/btc/lifespan/Lth_mvrv?startDate=2025-06-01&endDate=2025-06-01",
          headers: { "x-api-key": "k", ...headers },
        },
        (res) => {
          let body = "";
          res.on("data", (d: Buffer) => (body += d));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on("error", reject);
      req.end();
    });

  it("answers 403 to a rebinding Host or a foreign Origin, charging nothing; localhost names pass", async () => {
    const host = await get({ host: "attacker.example:8080" });
    expect(host.status).toBe(403);
    expect(JSON.parse(host.body).error.message).toMatch(/Host header names a host this server does not answer to/);
    expect((await get({ origin: "https://evil.example" })).status).toBe(403);
    expect(await rig.service.creditsRemaining("k")).toBe(100);
    expect((await get({ host: `localhost:${rest.port}` })).status).toBe(200);
    expect((await get({ host: `127.0.0.1:${rest.port}`, origin: `http://localhost:${rest.port}` })).status).toBe(200);
    expect(await rig.service.creditsRemaining("k")).toBe(98);
  });
});

describe("MCP arguments and resource URIs", () => {
  let f: Fixture;
  beforeAll(async () => {
    f = await connect();
  });
  afterAll(() => f.close());

  it("refuses a repeated query parameter in a resource URI, as the REST face does", async () => {
    await expect(
      f.client.readResource({ uri: "crypto-metrics://series/btc/lifespan/Lth_mvrv?startDate=2025-06-01&startDate=2025-01-01" }),
    ).rejects.toThrow(/Query parameter "startDate" is repeated; give it once/);
  });

  it("refuses __proto__ like any unknown argument, charging nothing", async () => {
    const before = textOf(
      await f.call("get_series", { metric: "lifespan/Lth_mvrv", asset: "btc", startDate: "2025-06-01", endDate: "2025-06-01" }),
    );
    expect(before).toMatch(/left/);
    for (const raw of ['{"__proto__": {"startDate": "2020-01-01"}}', '{"constructor": 1}']) {
      const args = { metric: "lifespan/Lth_mvrv", asset: "btc", ...(JSON.parse(raw) as object) };
      const result = await f.call("get_series", args);
      expect(result.isError).toBe(true);
      expect(errorOf(result).code).toBe("invalid_arguments");
      expect(textOf(result)).toMatch(/unknown argument "(__proto__|constructor)"/);
    }
  });
});
