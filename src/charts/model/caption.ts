// The line every picture carries about where its figures come from: a chart is screenshotted and
// shared without the answer's text, so it must say by itself whether it shows the simulation.

/** An answer's `source` as pictures read it (the tools' provenance, or the same fields from JSON). */
export type CaptionSource =
  { kind: "simulated"; calibratedThrough: string; beyondCalibration: boolean } | { kind: "service"; host: string; asOf: string };

export function sourceCaption(source: CaptionSource): string {
  if (source.kind === "service") return `${source.host} · data as of ${source.asOf.slice(0, 10)} ${source.asOf.slice(11, 16)} UTC`;
  const head = `Simulated · calibrated to real history through ${source.calibratedThrough}`;
  return source.beyondCalibration ? `${head} · later days a simulated continuation` : head;
}

/** A `source` read from a result's JSON, or null when it has none a caption can be made of. */
export function captionSourceOf(value: unknown): CaptionSource | null {
  if (!value || typeof value !== "object") return null;
  const s = value as Record<string, unknown>;
  if (s["kind"] === "simulated" && typeof s["calibratedThrough"] === "string")
    return { kind: "simulated", calibratedThrough: s["calibratedThrough"], beyondCalibration: s["beyondCalibration"] === true };
  if (s["kind"] === "service" && typeof s["host"] === "string" && typeof s["asOf"] === "string")
    return { kind: "service", host: s["host"], asOf: s["asOf"] };
  return null;
}
