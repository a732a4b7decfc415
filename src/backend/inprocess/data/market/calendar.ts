// The market-event calendar of anchors.json: fee levels of each era and congestion waves (and
// the other dated events added beside them), read once per asset on first use.
import file from "./anchors.json" with { type: "json" };
import { dayOf } from "../anchors.js";
import type { Points } from "./reference.js";

/** One congestion wave of a fee market, as the file records it. */
interface WaveEntry {
  peak: string;
  usd: number;
  rise: number;
  decay: number;
  what: string;
  sources: number[];
}

export interface Wave {
  peakDay: number;
  /** Mean fee per transaction on the peak day (USD). */
  usd: number;
  /** e-folding days before and after the peak. */
  rise: number;
  decay: number;
}

interface Calendar {
  fees: Record<string, Array<[string, number, number]>>;
  congestion: Record<string, WaveEntry[]>;
}

const RAW = file as unknown as Calendar;
const feeLevels = new Map<string, Points | undefined>();
const waves = new Map<string, readonly Wave[]>();

/** Calm-day fee levels of an asset (USD per transaction), or undefined when the calendar has none. */
export function feeLevelsOf(asset: string): Points | undefined {
  if (feeLevels.has(asset)) return feeLevels.get(asset);
  const rows = RAW.fees[asset];
  const points = Array.isArray(rows)
    ? { days: Int32Array.from(rows, ([d]) => dayOf(d)), logs: Float64Array.from(rows, ([, v]) => Math.log(v)) }
    : undefined;
  feeLevels.set(asset, points);
  return points;
}

/** Congestion waves of an asset's fee market, by peak day. */
export function wavesOf(asset: string): readonly Wave[] {
  let list = waves.get(asset);
  if (!list) {
    const rows = RAW.congestion[asset];
    list = Array.isArray(rows) ? rows.map((w) => ({ peakDay: dayOf(w.peak), usd: w.usd, rise: w.rise, decay: w.decay })) : [];
    waves.set(asset, list);
  }
  return list;
}
