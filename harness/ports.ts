// Free loopback ports, for servers whose public URL must be known before they start.
import { createServer } from "node:net";

/** A free loopback port, for a server whose public URL must be known before it starts. */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((done) => probe.listen(0, "127.0.0.1", done));
  const port = (probe.address() as { port: number }).port;
  await new Promise((done) => probe.close(done));
  return port;
}
