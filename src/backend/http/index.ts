// The HTTP backend: the service's Backend over the real upstream (CRYPTO_METRICS_BASE_URL).
import { HttpBackend } from "./http-backend.js";
import type { HttpBackendOptions } from "./options.js";

export { HttpBackend } from "./http-backend.js";
export type { HttpBackendOptions, Logger, Timeouts } from "./options.js";

/** The backend for a configuration that names a base URL (see src/config.ts). */
export function createHttpBackend(
  config: { baseUrl?: string | undefined; apiKey?: string | undefined },
  overrides: Omit<HttpBackendOptions, "baseUrl" | "apiKey"> = {},
): HttpBackend {
  if (!config.baseUrl) throw new TypeError("createHttpBackend: no base URL (set CRYPTO_METRICS_BASE_URL)");
  return new HttpBackend({ ...overrides, baseUrl: config.baseUrl, ...(config.apiKey !== undefined && { apiKey: config.apiKey }) });
}
