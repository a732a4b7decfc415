// Local upstreams on loopback port 0: our own REST face in front of an in-process service (every
// request recorded with the key it carried), and a raw server whose answers a test scripts.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

import type { InProcessService } from "../src/backend/inprocess/service.js";
import { restHandler } from "../src/backend/rest.js";

export interface Seen {
  method: string;
  url: string;
  key: string | undefined;
}

export interface Upstream {
  url: string;
  server: Server;
  seen: Seen[];
  close(): Promise<void>;
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function closer(server: Server): () => Promise<void> {
  return () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
}

function keyOf(req: IncomingMessage): string | undefined {
  const k = req.headers["x-api-key"];
  if (typeof k === "string") return k;
  const auth = req.headers.authorization;
  return auth?.replace(/^Bearer\s+/i, "");
}

/** The REST face of `service`, recording each request before it is answered. */
export async function restUpstream(service: InProcessService): Promise<Upstream> {
  const handler = restHandler(service);
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    seen.push({ method: req.method ?? "", url: req.url ?? "", key: keyOf(req) });
    handler(req, res);
  });
  const url = await listen(server);
  return { url, server, seen, close: closer(server) };
}

/** A server answering every request with `answer` (which may also stall or break the socket). */
export async function rawUpstream(answer: (req: IncomingMessage, res: ServerResponse, seen: Seen) => void): Promise<Upstream> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    const s = { method: req.method ?? "", url: req.url ?? "", key: keyOf(req) };
    seen.push(s);
    answer(req, res, s);
  });
  const url = await listen(server);
  return { url, server, seen, close: closer(server) };
}
