// What an SDK-based host pays for our tools/list: the SDK (v1) client's listTools() parses the
// result and compiles every tool's outputSchema (Ajv) before it returns. Measured in this process,
// as a host measures it (its Ajv warm from earlier sessions), against the same request taken as
// plain JSON (a pass-through result schema, no output schemas compiled), each on a fresh
// connection to a fresh server, the two kinds interleaved.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { z } from "zod";
import { CLI, type Sandbox } from "./proc.js";
import { median, msSince, round } from "./stats.js";

export interface SdkListing {
  runs: number;
  /** listTools(): the result parsed and every outputSchema compiled. */
  sdkMs: number;
  /** The same request with a pass-through result schema. */
  rawMs: number;
  outputSchemaBytes: number;
}

const PASS_THROUGH = z.object({}).passthrough();

async function once(sandbox: Sandbox, sdk: boolean): Promise<{ ms: number; bytes: number }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI],
    env: sandbox.env as Record<string, string>,
    stderr: "ignore",
  });
  const client = new Client({ name: "crypto-metrics-bench", version: "1.0.0" });
  await client.connect(transport);
  try {
    const t0 = process.hrtime.bigint();
    const result = sdk ? await client.listTools() : await client.request({ method: "tools/list" }, PASS_THROUGH);
    const ms = msSince(t0);
    const tools = (result as { tools: Array<{ outputSchema?: unknown }> }).tools;
    return { ms, bytes: JSON.stringify(tools.map((t) => t.outputSchema ?? null)).length };
  } finally {
    await client.close();
  }
}

export async function measureSdkListing(sandbox: Sandbox, runs: number): Promise<SdkListing> {
  for (let i = 0; i < 3; i++) await once(sandbox, i % 2 === 0);
  const sdk: number[] = [];
  const raw: number[] = [];
  let bytes = 0;
  for (let i = 0; i < runs; i++) {
    for (const kind of i % 2 ? [true, false] : [false, true]) {
      const r = await once(sandbox, kind);
      (kind ? sdk : raw).push(r.ms);
      bytes = r.bytes;
    }
  }
  return { runs, sdkMs: round(median(sdk)), rawMs: round(median(raw)), outputSchemaBytes: bytes };
}
