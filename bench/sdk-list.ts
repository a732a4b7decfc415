// What an SDK-based host pays for our tools/list: the SDK (v1) client's listTools() parses the
// result and compiles every tool's outputSchema (Ajv) before it returns. Measured in this process,
// as a host measures it (its Ajv warm from earlier sessions), against the same request taken as
// plain JSON (a pass-through result schema, no output schemas compiled), each on a fresh
// connection to a fresh server, the kinds interleaved. The third kind splits the difference: the
// same listTools() with a validator that compiles nothing is the SDK's own cost (parsing the
// result, caching each tool), whatever our schemas say; the rest is Ajv compiling them. The SDK v2
// client's listTools() is the fourth kind: it compiles a tool's output schema at its first call,
// not at the listing.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/types.js";
import { z } from "zod";

import { CLI, type Sandbox } from "./proc.js";
import { median, msSince, round } from "./stats.js";

export interface SdkListing {
  runs: number;
  /** listTools(): the result parsed and every outputSchema compiled. */
  sdkMs: number;
  /** listTools() with a validator that compiles nothing: the SDK's own cost. */
  sdkNoCompileMs: number;
  /** The same request with a pass-through result schema. */
  rawMs: number;
  /** The SDK v2 client's listTools() (its default negotiation): parsed, nothing compiled until a tool is called. */
  sdkV2Ms: number;
  outputSchemaBytes: number;
}

const PASS_THROUGH = z.object({}).passthrough();

/** Accepts every schema without compiling it (and every value: nothing is validated here). */
const NO_COMPILE: jsonSchemaValidator = { getValidator: () => (input) => ({ valid: true, data: input as never, errorMessage: undefined }) };

type Kind = "sdk" | "sdkNoCompile" | "raw" | "sdkV2";
const KINDS: readonly Kind[] = ["sdk", "sdkNoCompile", "raw", "sdkV2"];

async function onceV2(sandbox: Sandbox): Promise<{ ms: number; bytes: number }> {
  const { Client: ClientV2 } = await import("@modelcontextprotocol/client");
  const { StdioClientTransport: StdioV2 } = await import("@modelcontextprotocol/client/stdio");
  const client = new ClientV2({ name: "crypto-metrics-bench", version: "1.0.0" });
  await client.connect(
    new StdioV2({ command: process.execPath, args: [CLI], env: sandbox.env as Record<string, string>, stderr: "ignore" }),
  );
  try {
    const t0 = process.hrtime.bigint();
    const { tools } = await client.listTools();
    const ms = msSince(t0);
    return { ms, bytes: JSON.stringify(tools.map((t) => t.outputSchema ?? null)).length };
  } finally {
    await client.close();
  }
}

async function once(sandbox: Sandbox, kind: Kind): Promise<{ ms: number; bytes: number }> {
  if (kind === "sdkV2") return onceV2(sandbox);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI],
    env: sandbox.env as Record<string, string>,
    stderr: "ignore",
  });
  const client = new Client(
    { name: "crypto-metrics-bench", version: "1.0.0" },
    kind === "sdkNoCompile" ? { jsonSchemaValidator: NO_COMPILE } : {},
  );
  await client.connect(transport);
  try {
    const t0 = process.hrtime.bigint();
    const result = kind === "raw" ? await client.request({ method: "tools/list" }, PASS_THROUGH) : await client.listTools();
    const ms = msSince(t0);
    const tools = (result as { tools: Array<{ outputSchema?: unknown }> }).tools;
    return { ms, bytes: JSON.stringify(tools.map((t) => t.outputSchema ?? null)).length };
  } finally {
    await client.close();
  }
}

export async function measureSdkListing(sandbox: Sandbox, runs: number): Promise<SdkListing> {
  for (const kind of KINDS) await once(sandbox, kind);
  const samples: Record<Kind, number[]> = { sdk: [], sdkNoCompile: [], raw: [], sdkV2: [] };
  let bytes = 0;
  for (let i = 0; i < runs; i++) {
    // Rotate which goes first so none always follows the same neighbour.
    for (let k = 0; k < KINDS.length; k++) {
      const kind = KINDS[(i + k) % KINDS.length]!;
      const r = await once(sandbox, kind);
      samples[kind].push(r.ms);
      bytes = r.bytes;
    }
  }
  return {
    runs,
    sdkMs: round(median(samples.sdk)),
    sdkNoCompileMs: round(median(samples.sdkNoCompile)),
    rawMs: round(median(samples.raw)),
    sdkV2Ms: round(median(samples.sdkV2)),
    outputSchemaBytes: bytes,
  };
}
