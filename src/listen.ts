// Binding a node:http server: one place for the listen handshake and the URL it prints.
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";

/** Listens on host:port (port 0 picks a free one); resolves once bound with the port and `http://HOST:PORT`. */
export async function listen(server: Server, host: string, port: number): Promise<{ port: number; url: string }> {
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const bound = (server.address() as AddressInfo).port;
  return { port: bound, url: `http://${host.includes(":") ? `[${host}]` : host}:${bound}` };
}
