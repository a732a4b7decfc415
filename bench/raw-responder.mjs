// Floor for the cold-start figure: the least a Node process can do to answer an MCP client, with no
// SDK and no zod: read newline-delimited JSON-RPC from stdin and answer initialize and tools/list
// with fixed bytes (tools/list: the exact listing our server served, from the file named by argv[2]).
import { readFileSync } from "node:fs";

const tools = JSON.parse(readFileSync(process.argv[2], "utf8"));
const INITIALIZE = {
  protocolVersion: "2025-06-18",
  capabilities: { tools: {} },
  serverInfo: { name: "raw", version: "1.0.0" },
};
let buffered = "";
process.stdin.on("data", (chunk) => {
  buffered += chunk;
  let nl;
  while ((nl = buffered.indexOf("\n")) >= 0) {
    const msg = JSON.parse(buffered.slice(0, nl));
    buffered = buffered.slice(nl + 1);
    if (msg.id === undefined) continue;
    const result = msg.method === "initialize" ? INITIALIZE : msg.method === "tools/list" ? tools : {};
    process.stdout.write(`${JSON.stringify({ jsonrpc: "2.0", id: msg.id, result })}\n`);
  }
});
process.stdin.setEncoding("utf8");
