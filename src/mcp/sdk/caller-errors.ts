// The SDK answers a request whose params fail the method's own schema (resources/read with a
// number as uri, prompts/get without a name, logging/setLevel with an unknown level, a malformed
// initialize) with -32603 Internal error and the raw validation issues as the message. The fault
// is the caller's: this adapter, set on every transport a server connects to, answers -32602
// Invalid params naming the field instead. It reads only what goes out through the public
// Transport interface; a test pins the SDK behaviour it corrects (test/mcp/caller-errors.test.ts).
import type { JSONRPCMessage, McpServer, Transport } from "@modelcontextprotocol/server";

const INTERNAL_ERROR = -32603;
const INVALID_PARAMS = -32602;

interface Issue {
  path: PropertyKey[];
  message?: string;
}

/** The validation issues an internal-error message carries, or undefined when it is anything else. */
function issuesOf(message: string): Issue[] | undefined {
  if (!message.startsWith("[")) return undefined;
  try {
    const parsed = JSON.parse(message) as unknown;
    if (!Array.isArray(parsed) || parsed.length === 0) return undefined;
    return parsed.every((i) => typeof i === "object" && i !== null && Array.isArray((i as Issue).path)) ? (parsed as Issue[]) : undefined;
  } catch {
    return undefined;
  }
}

/** The same message with a caller's malformed params answered as -32602 naming the field. */
export function asCallerError(message: JSONRPCMessage): JSONRPCMessage {
  const error = (message as { error?: { code?: unknown; message?: unknown } }).error;
  if (!error || error.code !== INTERNAL_ERROR || typeof error.message !== "string") return message;
  const issues = issuesOf(error.message);
  if (!issues) return message;
  const detail = issues
    .slice(0, 3)
    .map(
      (issue) =>
        `${
          issue.path
            .filter((p) => p !== "params")
            .map(String)
            .join(".") || "params"
        }: ${issue.message ?? "invalid"}`,
    )
    .join("; ");
  return { ...message, error: { code: INVALID_PARAMS, message: `Invalid params: ${detail}` } } as JSONRPCMessage;
}

/** Wraps the transport's send in place (its identity stays: the SDK keys per-transport state on it). */
export function answerCallerErrors(transport: Transport): void {
  const send = transport.send.bind(transport);
  transport.send = (message, options) => send(asCallerError(message), options);
}

/** Every transport `server` connects to answers callers' malformed params as theirs (`answerCallerErrors`). */
export function answerCallerErrorsOn(server: McpServer): void {
  const connect = server.connect.bind(server);
  server.connect = (transport) => {
    answerCallerErrors(transport);
    return connect(transport);
  };
}
