// Every flag of the command line in one table: the server's flags, with the commands each applies to and
// whether `call` takes it among its own tokens, and the `call` command's own options. Both argument
// parsers read it (`parseArgs` here, `parseCallCommand` in call/flags.ts), and so do the usage texts.
import { LOG_LEVELS } from "../log.js";
import { type CallSpec, type Command, COMMANDS, ConfigError } from "./shape.js";

export interface FlagSpec {
  readonly name: string;
  /** The value's placeholder in usage texts (`PATH`); a switch takes none. */
  readonly value?: string;
  /** What "needs a value" shows after the flag's name (default `…`). */
  readonly example?: string;
  /** The commands the flag applies to; every command when absent. */
  readonly commands?: readonly Command[];
  /** A configuration flag `call` accepts anywhere among its own tokens. */
  readonly anywhereInCall?: boolean;
}

/** The server's flags, in the order usage texts and the list of accepted flags name them. */
export const FLAGS: readonly FlagSpec[] = [
  { name: "host", value: "HOST", commands: ["http", "api"] },
  { name: "port", value: "PORT", example: "8080", commands: ["http", "api"] },
  { name: "require-key", commands: ["http"] },
  { name: "allow-anonymous", commands: ["http"] },
  { name: "allowed-hosts", value: "NAME,…", commands: ["http"] },
  { name: "auth", value: "key|oauth|none", commands: ["http"] },
  { name: "issuer", value: "URL", commands: ["http"] },
  { name: "public-url", value: "URL", commands: ["http"] },
  { name: "keys-file", value: "PATH", anywhereInCall: true },
  { name: "state-dir", value: "DIR", anywhereInCall: true },
  { name: "store", value: "URL", anywhereInCall: true },
  { name: "log-level", value: LOG_LEVELS.join("|"), anywhereInCall: true },
  { name: "help" },
  { name: "version" },
];

/** The `call` command's own options (call/flags.ts reads their values). */
export const CALL_OPTIONS: readonly FlagSpec[] = [
  { name: "format", value: "text|json|csv", example: "json" },
  { name: "batch", value: "FILE|-", example: "calls.jsonl (or - for stdin)" },
  { name: "concurrency", value: "N", example: "8" },
  { name: "no-wait" },
  { name: "help" },
];

const byName = new Map(FLAGS.map((f) => [f.name, f]));

/** The flags every command takes, as the usage line writes them: `--keys-file PATH  --state-dir DIR  …`. */
export function commonFlagsUsage(): string {
  return FLAGS.filter((f) => !f.commands)
    .map((f) => (f.value ? `--${f.name} ${f.value}` : `--${f.name}`))
    .join("  ");
}

/** The configuration flags `call` takes among its tokens: `--keys-file, --state-dir, --store, --log-level`. */
export function callConfigFlagsUsage(): string {
  return FLAGS.filter((f) => f.anywhereInCall)
    .map((f) => `--${f.name}`)
    .join(", ");
}

export interface ParsedArgs {
  command: Command | undefined;
  /** Flags that take a value, by name. */
  values: Partial<Record<string, string>>;
  /** Switches given. */
  switches: Set<string>;
  call: CallSpec | undefined;
}

export function splitFlag(token: string): [name: string, inline: string | undefined] {
  const eq = token.indexOf("=");
  return eq === -1 ? [token.slice(2), undefined] : [token.slice(2, eq), token.slice(eq + 1)];
}

function isConfigFlag(token: string): boolean {
  return token.startsWith("--") && byName.get(splitFlag(token)[0])?.anywhereInCall === true;
}

function unknownFlag(name: string): ConfigError {
  const accepted = [...FLAGS.filter((f) => f.value), ...FLAGS.filter((f) => !f.value)].map((f) => `--${f.name}`);
  return new ConfigError(`unknown flag --${name}; accepted: ${accepted.join(", ")}`);
}

/** The command and its flags; after `call`, every token but a configuration flag is the call's. */
export function parseArgs(argv: readonly string[]): ParsedArgs {
  const out: ParsedArgs = { command: undefined, values: {}, switches: new Set(), call: undefined };
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i]!;
    if (out.call && !isConfigFlag(token)) {
      out.call.argv.push(token);
      continue;
    }
    if (token === "-h" || token === "-v") {
      out.switches.add(token === "-h" ? "help" : "version");
      continue;
    }
    if (!token.startsWith("--")) {
      if (out.command !== undefined) throw new ConfigError(`unexpected argument "${token}"; run with --help for usage`);
      if (!(COMMANDS as readonly string[]).includes(token)) {
        throw new ConfigError(`unknown command "${token}"; use one of ${COMMANDS.join(", ")} (default stdio)`);
      }
      out.command = token as Command;
      if (out.command === "call") out.call = { argv: [] };
      continue;
    }
    const [name, inline] = splitFlag(token);
    const flag = byName.get(name);
    if (!flag) throw unknownFlag(name);
    if (!flag.value) {
      if (inline !== undefined) throw new ConfigError(`--${name} takes no value`);
      out.switches.add(name);
      continue;
    }
    const value = inline ?? argv[++i];
    if (value === undefined || (inline === undefined && value.startsWith("--"))) {
      throw new ConfigError(`--${name} needs a value, e.g. --${name} ${flag.example ?? "…"}`);
    }
    out.values[name] = value;
  }
  return out;
}

function commandsWord(commands: readonly Command[]): string {
  return commands.length === 1 ? `the ${commands[0]} command` : `the ${commands.slice(0, -1).join(", ")} and ${commands.at(-1)} commands`;
}

/** Refuses flags given to a command they do not apply to, and flags that contradict each other. */
export function checkFlagsApply(args: ParsedArgs, command: Command): void {
  for (const flag of FLAGS) {
    const given = flag.value ? args.values[flag.name] !== undefined : args.switches.has(flag.name);
    if (given && flag.commands && !flag.commands.includes(command))
      throw new ConfigError(`--${flag.name} applies to ${commandsWord(flag.commands)}, not ${command}`);
  }
  if (args.switches.has("require-key") && args.switches.has("allow-anonymous")) {
    throw new ConfigError("--require-key and --allow-anonymous contradict each other; give one");
  }
}
