// Exit codes of `call` by cause, so a script can tell "fix the command" from "wait and retry" from
// "the service is down" without reading the message. The README's table of errors lists them.
import type { ErrorCode } from "../backend/types.js";
import type { ToolErrorCode } from "../mcp/errors.js";

export const EXIT = {
  ok: 0,
  other: 1,
  usage: 2,
  auth: 3,
  limited: 4,
  unavailable: 5,
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** Codes of mistakes in a `call` command line or batch, found before any tool runs. */
export type CommandErrorCode = "usage" | "unknown_tool" | "invalid_batch_line" | "no_tabular_data";

/**
 * Every error code there is, with its exit code: a new code does not compile until it has one.
 * 2: the caller can fix the command (arguments, coverage, ranges, the CLI's own usage); 3: the key
 * (missing, rejected, sent twice, not entitled); 4: waiting (rate window) or topping up (credits)
 * makes the same call succeed; 5: the real service (or the metering store) is down, slow or
 * answering outside its contract.
 */
const EXIT_OF: Record<ErrorCode | ToolErrorCode | CommandErrorCode | "config", ExitCode> = {
  usage: EXIT.usage,
  config: EXIT.usage,
  unknown_tool: EXIT.usage,
  invalid_batch_line: EXIT.usage,
  no_tabular_data: EXIT.usage,
  invalid_arguments: EXIT.usage,
  unknown_metric: EXIT.usage,
  unknown_asset: EXIT.usage,
  asset_not_supported: EXIT.usage,
  invalid_parameter: EXIT.usage,
  range_too_large: EXIT.usage,
  payload_too_large: EXIT.usage,
  not_found: EXIT.usage,
  unauthorized: EXIT.auth,
  conflicting_credentials: EXIT.auth,
  metric_not_allowed: EXIT.auth,
  rate_limited: EXIT.limited,
  credits_exhausted: EXIT.limited,
  upstream_unavailable: EXIT.unavailable,
  upstream_timeout: EXIT.unavailable,
  circuit_open: EXIT.unavailable,
  upstream_invalid_response: EXIT.unavailable,
  // The metering store (a disk or a database of ours) cannot record a charge: wait and retry, as for an outage.
  store_unavailable: EXIT.unavailable,
  // Refusals of the REST face's HTTP layer, which no tool call meets.
  method_not_allowed: EXIT.other,
  forbidden: EXIT.other,
  internal: EXIT.other,
};

export function exitCodeOf(errorCode: string): ExitCode {
  return Object.hasOwn(EXIT_OF, errorCode) ? EXIT_OF[errorCode as keyof typeof EXIT_OF] : EXIT.other;
}

/** Every known error code with its exit code, for the README check. */
export function exitCodes(): ReadonlyArray<readonly [code: string, exit: ExitCode]> {
  return Object.entries(EXIT_OF);
}
