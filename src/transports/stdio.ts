// MCP over stdio: stdout carries JSON-RPC only, logs go to stderr; a signal or the end of stdin
// closes the server and the backend (flushing usage) and exits 0.
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { Config } from "../config.js";
import { log } from "../log.js";
import { createBackend, createServer } from "../server.js";

export async function runStdio(config: Config): Promise<void> {
  const backend = await createBackend(config);
  const server = createServer({ backend, config });
  const transport = new StdioServerTransport();
  // The SDK waits for 'drain' once per response written while stdout is full: a client with many
  // calls in flight would trip Node's 10-listener warning, a false "memory leak" report on stderr.
  process.stdout.setMaxListeners(Math.max(process.stdout.getMaxListeners(), 1_000));

  let closing: Promise<void> | undefined;
  const shutdown = (reason: string): Promise<void> => {
    closing ??= (async () => {
      log.debug("stdio session ending", { reason });
      await server.close().catch(() => undefined);
      await backend.close().catch((err: unknown) => log.warn("closing the backend failed", { error: String(err) }));
      // Let any response already queued reach the client before the process goes.
      await new Promise<void>((resolve) => (process.stdout.writableNeedDrain ? process.stdout.once("drain", resolve) : resolve()));
      process.exit(0);
    })();
    return closing;
  };

  process.once("SIGTERM", () => void shutdown("SIGTERM"));
  process.once("SIGINT", () => void shutdown("SIGINT"));
  process.stdin.once("end", () => void shutdown("stdin ended"));
  process.stdin.once("close", () => void shutdown("stdin closed"));
  // A client that goes away leaves EPIPE on stdout: that is the end of the session, not a crash.
  process.stdout.on("error", () => void shutdown("stdout closed"));
  transport.onerror = (err) => log.warn("stdio transport error", { error: err.message });

  await server.connect(transport);
  log.info("ready on stdio", { backend: backend.kind });
}
