// Maps a request path to a catalog endpoint. Paths are case-sensitive as the spec writes them;
// a near miss is a 404 that names the path meant.
import { type Endpoint, ENDPOINTS, HEATMAP_ID, nearestEndpoints } from "../../catalog/index.js";
import { ServiceError } from "../types.js";

export interface Route {
  endpoint: Endpoint;
  /** The asset path segment; undefined for the heatmap, whose asset is a query parameter. */
  asset: string | undefined;
}

const byId = new Map<string, Endpoint>();
const byLowerId = new Map<string, Endpoint>();
for (const e of ENDPOINTS) {
  byId.set(e.id, e);
  byLowerId.set(e.id.toLowerCase(), e);
}
const heatmap = byId.get(HEATMAP_ID)!;
const pathIds = ENDPOINTS.filter((e) => e.kind !== "heatmap").map((e) => e.id);

/** User-supplied text fit to quote in a message: printable, and short. */
export function shown(text: string): string {
  const clean = text.replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, "");
  return clean.length > 48 ? `${clean.slice(0, 48)}…` : clean;
}

function notFound(message: string, allowed?: readonly string[]): ServiceError {
  return new ServiceError(404, "not_found", message, allowed ? { allowed } : {});
}

function decode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

const SHAPE = "paths look like /{asset}/{group}/{metric}, e.g. /btc/derivatives/Volume_usd, or /liquidation_levels/heatmap?asset=btc";

/** The endpoint a path names, or a 404 ServiceError saying which path was probably meant. */
export function route(path: string): Route {
  const raw = path.split("/");
  const segments = (raw[0] === "" ? raw.slice(1) : raw).map(decode);
  if (segments.some((s) => s === undefined || s === "")) {
    throw notFound(`No endpoint at ${shown(path)}; ${SHAPE}.`);
  }
  const parts = segments as string[];
  if (parts.length === 2) {
    const id = `${parts[0]}/${parts[1]}`;
    if (id === HEATMAP_ID) return { endpoint: heatmap, asset: undefined };
    if (id.toLowerCase() === HEATMAP_ID)
      throw notFound(`No endpoint at ${shown(path)}; paths are case-sensitive: use /${HEATMAP_ID}.`, [`/${HEATMAP_ID}`]);
    throw notFound(`No endpoint at ${shown(path)}; ${SHAPE}.`);
  }
  if (parts.length === 3) {
    const [asset, group, segment] = parts as [string, string, string];
    const id = `${group}/${segment}`;
    const exact = byId.get(id);
    if (exact && exact.kind !== "heatmap") return { endpoint: exact, asset };
    if (exact) {
      throw notFound(`The heatmap takes its asset as a query parameter: use /${HEATMAP_ID}?asset=${shown(asset)}.`, [`/${HEATMAP_ID}`]);
    }
    const folded = byLowerId.get(id.toLowerCase());
    if (folded && folded.kind !== "heatmap") {
      const right = `/${shown(asset)}/${folded.id}`;
      throw notFound(`No endpoint at ${shown(path)}; paths are case-sensitive: use ${right}.`, [right]);
    }
    const near = nearestEndpoints(id, pathIds);
    const hint = near.length ? ` Did you mean ${near.map((n) => `/${shown(asset)}/${n}`).join(" or ")}?` : "";
    throw notFound(`No endpoint ${shown(id)}.${hint} The catalog lists the ${ENDPOINTS.length} endpoints.`, near);
  }
  throw notFound(`No endpoint at ${shown(path)}; ${SHAPE}.`);
}
