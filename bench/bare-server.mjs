// Baseline for the REST figure: a bare node:http server answering every request with the same
// bytes our REST face returns (read from the file named by argv[2]), with the same content type.
// Prints `listening on http://HOST:PORT` to stderr once ready, like `crypto-metrics-mcp api`.
import { readFileSync } from "node:fs";
import { createServer } from "node:http";

const body = readFileSync(process.argv[2] ?? "/dev/null");
const server = createServer((req, res) => {
  // Drain the request so keep-alive connections stay reusable.
  req.resume();
  res.writeHead(200, { "Content-Type": "application/json; charset=utf-8", "Content-Length": body.length });
  res.end(body);
});
server.keepAliveTimeout = 5_000;
server.listen(0, "127.0.0.1", () => {
  const { port } = server.address();
  process.stderr.write(`listening on http://127.0.0.1:${port}\n`);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
