// server.json for the official MCP Registry (schema 2025-12-11), derived from package.json: the
// registry name is package.json's `mcpName` (which is also how the registry checks that the npm
// package belongs to the publisher), the version is the package's exact version.
export const SERVER_SCHEMA = "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json";

/** The registry caps a server's description at 100 characters. */
export const REGISTRY_DESCRIPTION = "Crypto market and on-chain metrics for AI assistants: digested series, liquidation heatmaps";

interface PackageJson {
  name: string;
  version: string;
  mcpName: string;
}

interface EnvironmentVariable {
  name: string;
  description: string;
  isRequired: boolean;
  isSecret: boolean;
  format?: "string" | "filepath";
  default?: string;
}

/** Every variable the program reads (src/config.ts), as a registry client should ask for it. */
export const ENVIRONMENT_VARIABLES: readonly EnvironmentVariable[] = [
  {
    name: "CRYPTO_METRICS_API_KEY",
    description: "Key for the real service (with a base URL), else the local key; never logged",
    isRequired: false,
    isSecret: true,
  },
  {
    name: "CRYPTO_METRICS_BASE_URL",
    description: "http(s) address of the real service; unset: the built-in deterministic service",
    isRequired: false,
    isSecret: false,
  },
  {
    name: "CRYPTO_METRICS_KEYS_FILE",
    description: "JSON file of plans and keys for the built-in service",
    isRequired: false,
    isSecret: false,
    format: "filepath",
  },
  {
    name: "CRYPTO_METRICS_STATE_DIR",
    description: "Where credits spent per key are recorded",
    isRequired: false,
    isSecret: false,
    format: "filepath",
  },
  {
    name: "CRYPTO_METRICS_STORE",
    description: "Metering store: unset for the embedded SQLite file, or a postgres:// URL shared by processes",
    isRequired: false,
    isSecret: true,
  },
  {
    name: "CRYPTO_METRICS_NOW",
    description: "Pins the built-in service's now (ISO 8601 or epoch ms) for reproducible answers",
    isRequired: false,
    isSecret: false,
  },
  {
    name: "CRYPTO_METRICS_LOG_LEVEL",
    description: "silent, error, warn, info or debug (stderr)",
    isRequired: false,
    isSecret: false,
    default: "info",
  },
];

export function buildServerJson(pkg: PackageJson): Record<string, unknown> {
  return {
    $schema: SERVER_SCHEMA,
    name: pkg.mcpName,
    title: "Crypto Metrics",
    description: REGISTRY_DESCRIPTION,
    version: pkg.version,
    packages: [
      {
        registryType: "npm",
        registryBaseUrl: "https://registry.npmjs.org",
        identifier: pkg.name,
        version: pkg.version,
        transport: { type: "stdio" },
        environmentVariables: ENVIRONMENT_VARIABLES,
      },
    ],
  };
}
