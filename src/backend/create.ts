// The backend a configuration asks for, kept apart from server.ts so that callers without MCP (the
// call command, the library) do not load the SDK to get one.
import type { Config } from "../config.js";
import { InProcessBackend } from "./inprocess/backend.js";
import type { Backend } from "./types.js";

/**
 * The real service over HTTP when a base URL is configured, else the in-process service. The HTTP
 * client (undici) is imported only then: loading it costs a fifth of a stdio server's start.
 */
export async function createBackend(config: Config): Promise<Backend> {
  if (!config.baseUrl) return InProcessBackend.create(config);
  const { createHttpBackend } = await import("./http/index.js");
  return createHttpBackend(config);
}
