// MCP over stdio, both protocol eras (the SDK's serveStdio decides from the opening message: a
// 2026-07-28 request or server/discover, or a 2025 initialize): stdout carries JSON-RPC only, logs
// go to stderr. The end of stdin or a SIGTERM first answers every request already received (within
// DRAIN_MS), then closes the server and the backend (flushing usage) and exits 0. The front (stdio-front.ts) reads stdin from the start and answers the 2025
// handshake while the server below is still loading.
import type { Backend } from "../backend/types.js";
import type { Config } from "../config.js";
import { log } from "../log.js";
import { stopOnSignals } from "../process-end.js";
import { viewSecret } from "../state-dir.js";
import { precomputedHandshake } from "./handshake.js";
import { StdioFront } from "./stdio-front.js";

/** With no message waiting, the server loads this long after start anyway, ready for the first call. */
const QUIET_MS = 150;
/** After the front's last handshake answer, this long without another before the server loads. */
const HANDSHAKE_GAP_MS = 15;
/** How long a session that is ending waits for the answers it owes. */
export const DRAIN_MS = 30_000;

export async function runStdio(config: Config): Promise<void> {
  const handshake = precomputedHandshake();
  // The same choice createBackend makes: a base URL means the HTTP backend (open-world tools).
  const front = new StdioFront(handshake, handshake?.byKind[config.baseUrl ? "http" : "inprocess"]);
  front.onerror = (err) => log.warn("stdio transport error", { error: err.message });
  front.listen();
  // The SDK waits for 'drain' once per response written while stdout is full: a client with many
  // calls in flight would trip Node's 10-listener warning, a false "memory leak" report on stderr.
  process.stdout.setMaxListeners(Math.max(process.stdout.getMaxListeners(), 1_000));

  // Loading the server blocks the event loop while its modules evaluate (on Node 22, from the
  // import to the end), so it starts only when something needs it: a message the front cannot
  // answer, the end of the handshake, or a moment of quiet; never while a handshake reply is due.
  let ready: Promise<Running> | undefined;
  let loaded!: (running: Running) => void;
  let failed!: (err: unknown) => void;
  const whenLoaded = new Promise<Running>((res, rej) => ((loaded = res), (failed = rej)));
  const load = (): Promise<Running> => {
    if (ready) return ready;
    const loading = loadServer(config, front);
    ready = loading;
    loading.then(loaded, failed);
    return loading;
  };
  const quiet = setTimeout(load, QUIET_MS);
  front.onwait = () => void load();
  // Once the lists stop coming (a client may ask them one after another, each after its answer).
  let settling: NodeJS.Timeout | undefined;
  front.onhandshake = () => {
    clearTimeout(settling);
    settling = setTimeout(load, HANDSHAKE_GAP_MS);
  };

  let closing: Promise<void> | undefined;
  /** `drain`: answer what was received first (a client gone from stdout cannot be answered). */
  const shutdown = (reason: string, drain = true): Promise<void> => {
    closing ??= (async () => {
      log.debug("stdio session ending", { reason });
      clearTimeout(quiet);
      clearTimeout(settling);
      if (drain) {
        front.end();
        // Requests that arrived before the server loaded wait for it: it loads now to answer them.
        if (front.waiting > 0) await load().catch(() => undefined);
        if (!(await front.outstanding.drained(DRAIN_MS)))
          log.warn("stdio session ended with requests unanswered", { unanswered: front.outstanding.size, waitedMs: DRAIN_MS });
      }
      const running = ready ? await ready.catch(() => undefined) : undefined;
      await running?.handle.close().catch(() => undefined);
      await running?.backend.close().catch((err: unknown) => log.warn("closing the backend failed", { error: String(err) }));
      // Let any response already queued reach the client before the process goes.
      await new Promise<void>((resolve) => (process.stdout.writableNeedDrain ? process.stdout.once("drain", resolve) : resolve()));
      process.exit(0);
    })();
    return closing;
  };

  stopOnSignals(shutdown);
  process.stdin.once("end", () => void shutdown("stdin ended"));
  process.stdin.once("close", () => void shutdown("stdin closed"));
  // A client that goes away leaves EPIPE on stdout: that is the end of the session, not a crash.
  process.stdout.on("error", () => void shutdown("stdout closed", false));
  // The SDK may close the transport; without this the process would stay up with stdin paused (and a
  // database pool keeping it alive), answering nothing.
  front.onclosed = () => void shutdown("transport closed", false);

  const { backend } = await whenLoaded;
  log.info("ready on stdio", { backend: backend.kind });
}

interface Running {
  handle: { close(): Promise<void> };
  backend: Backend;
}

/** Loads the server under the front: the backend, the view store, one instance per connection of the era its first message opens. */
async function loadServer(config: Config, front: StdioFront): Promise<Running> {
  const [{ createBackend, createServer, createViewStore, loggingOf }, { deserializeMessage }, { serveStdio }, { withAllVersions }] =
    await Promise.all([
      import("../server.js"),
      import("@modelcontextprotocol/server"),
      import("@modelcontextprotocol/server/stdio"),
      import("./versions.js"),
    ]);
  const backend = await createBackend(config);
  // Handles signed with the state directory's key outlive this process: a view reopened after a restart still loads.
  const views = createViewStore(() => viewSecret(process.env, config.stateDir));
  let forwarding: (() => void) | undefined;
  // One instance per connection, of the era its first message opens (a discarded one may
  // answer a server/discover probe first).
  const handle = serveStdio(
    ({ era }) => {
      const server = createServer({ backend, config, era, views });
      // One 2025-era client per process: what the server logs goes to it too, once it sets a level.
      forwarding?.();
      forwarding = loggingOf(server).forward(config.apiKey);
      return server;
    },
    { transport: front, onerror: (err) => log.warn("stdio transport error", { error: err.message }) },
  );
  front.attach(deserializeMessage, withAllVersions);
  return { handle, backend };
}
