// Where an answer's figures come from, said in every answer: the backend states its origin, and the
// results a tool fetched say how far in time the answer reaches (past the simulation's calibration?).
import { z } from "zod";

import { decorate } from "../backend/decorate.js";
import type { Backend, BackendContext, BackendRequest, BackendResult, DataOrigin } from "../backend/types.js";
import { isoDay } from "../catalog/dates.js";
import { DAY_MS } from "../catalog/index.js";

export const sourceSchema = z.union([
  z.object({
    kind: z.literal("simulated"),
    /** The last day (UTC) the simulated market follows real history. */
    calibratedThrough: z.string(),
    /** The answer covers time after that day: a simulated continuation, not market data. */
    beyondCalibration: z.boolean(),
  }),
  z.object({ kind: z.literal("service"), host: z.string(), asOf: z.string() }),
]);
export type Source = z.infer<typeof sourceSchema>;

/** What a tool's fetches reveal about the answer's time reach and, from a real service, its age. */
export interface Reach {
  /** Latest bucket start (epoch ms) among the results; -Infinity when none was timed. */
  latestMs: number;
  /** Earliest time a real service answered among the results (a cached answer keeps its time). */
  receivedMs: number;
  /** The service's "now" of the first result that states one (what a replay of the call runs as of). */
  asOfMs?: number;
}

/** The backend as the tool sees it, noting the reach of each result on the way. */
export function recordingBackend(backend: Backend): { backend: Backend; reach: Reach } {
  const reach: Reach = { latestMs: -Infinity, receivedMs: Infinity };
  const recording = decorate(backend, {
    async fetch(request: BackendRequest, context?: BackendContext) {
      const result = await backend.fetch(request, context);
      reach.latestMs = Math.max(reach.latestMs, latestOf(result));
      if (result.receivedMs !== undefined) reach.receivedMs = Math.min(reach.receivedMs, result.receivedMs);
      reach.asOfMs ??= result.asOfMs;
      return result;
    },
  });
  return { backend: recording, reach };
}

const lastOf = (a: ArrayLike<number> | undefined): number => {
  for (let i = (a?.length ?? 0) - 1; i >= 0; i--) if (Number.isFinite(a![i]!)) return a![i]!;
  return -Infinity;
};

/**
 * The latest bucket start a result holds. Records without times (a metrics-variation) give their
 * days, or else describe the last whole day before the service's "now".
 */
function latestOf(r: BackendResult): number {
  if (r.kind === "candles") return lastOf(r.candles.times);
  if (r.kind === "heatmap") return Math.max(lastOf(r.heatmap.times), lastOf(r.heatmap.candles.times));
  if (r.kind === "series" && r.columns) return lastOf(r.columns.times);
  if (r.kind === "variation" && r.candles) return lastOf(r.candles.times);
  const body = r.body;
  if (Array.isArray(body) && body.length) {
    const last = body[body.length - 1] as { time?: unknown };
    if (typeof last.time === "string") return Date.parse(last.time);
    // A metrics-variation dates each value by its day, when the service does.
    let dated = -Infinity;
    for (const record of body as Array<{ last_date?: unknown }>) {
      if (typeof record.last_date === "string")
        dated = Math.max(dated, Date.parse(`${record.last_date.slice(0, 10)}T00:00:00Z`) || -Infinity);
    }
    if (dated > -Infinity) return dated;
    const now = r.asOfMs ?? r.receivedMs;
    if (now !== undefined) return Math.floor(now / DAY_MS) * DAY_MS - DAY_MS;
  }
  return -Infinity;
}

/** The `source` of an answer; `nowMs` stands in for a real service's as-of time when nothing was fetched. */
export function sourceOf(origin: DataOrigin, reach: Reach, nowMs: number): Source {
  if (origin.kind === "service") {
    const asOf = Number.isFinite(reach.receivedMs) ? reach.receivedMs : nowMs;
    return { kind: "service", host: origin.host, asOf: new Date(asOf).toISOString() };
  }
  return {
    kind: "simulated",
    calibratedThrough: isoDay(origin.calibratedThroughMs),
    beyondCalibration: reach.latestMs >= origin.calibratedThroughMs + DAY_MS,
  };
}

/** The one line of text every answer ends with (about 25 tokens: it is read on every call). */
export function sourceLine(source: Source): string {
  if (source.kind === "service") return `Source: ${source.host}, data as of ${source.asOf.slice(0, 10)} ${source.asOf.slice(11, 16)} UTC.`;
  const head = `Source: simulated market, calibrated to real history through ${source.calibratedThrough}`;
  return source.beyondCalibration
    ? `${head}; later days are a simulated continuation, not market data.`
    : `${head}; present these figures as simulated.`;
}
