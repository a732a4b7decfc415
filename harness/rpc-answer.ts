// The JSON-RPC message of a Streamable HTTP response body, whether it came as JSON or as one SSE event.
export function rpcAnswer<T = unknown>(body: string): T {
  const event = body.startsWith("{") ? undefined : body.split("\n").find((l) => l.startsWith("data: "));
  return JSON.parse(event === undefined ? body : event.slice(6)) as T;
}
