// One scale per answer: every value of a series digest (statistics and points) is written in the
// same suffix (K, M, B, T or none), so a model never compares "15.51M" with "465,604.61".
import { seriesValueFormatter } from "./format.js";
import { groupedFixed } from "./grouped.js";

const NA = "n/a";
const SCALE_OF: Record<string, number> = { "": 1, K: 1e3, M: 1e6, B: 1e9, T: 1e12 };

export interface AnswerScale {
  /** "", "K", "M", "B" or "T"; "" also when values are written with an exponent. */
  suffix: string;
  /** A value of the points block, suffix attached ("79.6B"). */
  point: (x: number) => string;
  /** A statistic: the same scale, two decimals (three significant digits below 1), suffix and unit sign attached. */
  stat: (x: number) => string;
  /** A signed statistic (changes): "+" or "-" in front. */
  signed: (x: number) => string;
  /**
   * The scale for one line of statistics: the answer's, or a larger suffix once the line's largest
   * value reaches a thousand of the answer's (points in M read "303.4M", the peak "$290.53B";
   * a sum of 1-minute volumes is "$4.67T", not "$4,672,127M"). Every value of a line is in one scale.
   */
  line: (values: readonly number[]) => AnswerScale;
}

const STEP_UP = [
  { scale: 1e12, suffix: "T" },
  { scale: 1e9, suffix: "B" },
  { scale: 1e6, suffix: "M" },
] as const;

/**
 * The suffix the points block writes `values` in, applied to the statistics too; a whole number is
 * written without decimals. `usd` prefixes "$".
 */
export function answerScale(values: ArrayLike<number>, opts: { usd?: boolean } = {}): AnswerScale {
  const block = seriesValueFormatter(values);
  const exponent = block.format(1).includes("e");
  return statScale(block.suffix, exponent, block.format, opts.usd === true);
}

function statScale(suffix: string, exponent: boolean, point: (x: number) => string, usd: boolean): AnswerScale {
  const scale = SCALE_OF[suffix] ?? 1;
  const body = (a: number): string => {
    if (a === 0) return "0";
    if (exponent || a >= 1e15 || a < 1e-9) return a.toExponential(3).replace("e+", "e");
    const v = a / scale;
    if (v >= 1) {
      // Four digits before the point are precision enough: "$191,033M", not "$191,032.58M".
      if (v >= 1000 || Number.isInteger(v)) return groupedFixed(v, 0);
      return groupedFixed(v, 2);
    }
    return threeDigits(v);
  };
  const write = (x: number, sign: boolean): string => {
    if (!Number.isFinite(x)) return NA;
    const text = body(Math.abs(x));
    const shown = exponent || text === "0" || /e/.test(text) ? "" : suffix;
    const lead = x < 0 && text !== "0" ? "-" : sign && x > 0 ? "+" : "";
    return `${lead}${usd ? "$" : ""}${text}${shown}`;
  };
  const self: AnswerScale = {
    suffix: exponent ? "" : suffix,
    point,
    stat: (x) => write(x, false),
    signed: (x) => write(x, true),
    line(values) {
      if (exponent) return self;
      let max = 0;
      for (const x of values) if (Number.isFinite(x)) max = Math.max(max, Math.abs(x));
      if (max < 1e15 && max / scale < 1000) return self;
      const up = STEP_UP.find((s) => s.scale > scale && s.scale <= max);
      return up ? statScale(up.suffix, false, point, usd) : self;
    },
  };
  return self;
}

/** The unit a model should read: "native units" becomes the asset's ticker in upper case (BTC, ETH). */
export function displayUnit(unit: string | undefined, asset: string): string {
  if (!unit) return "";
  return unit === "native units" ? asset.toUpperCase() : unit;
}

/**
 * One fixed scale for amounts of very different sizes (a heatmap's cells, bands and totals): the
 * largest suffix the reference amount reaches, so the typical amount reads in whole units of it.
 */
export function amountScale(reference: number, opts: { usd?: boolean } = {}): (x: number) => string {
  const a = Math.abs(reference);
  const suffix = a >= 1e12 ? "T" : a >= 1e9 ? "B" : a >= 1e6 ? "M" : a >= 1e3 ? "K" : "";
  const scale = SCALE_OF[suffix]!;
  return (x) => {
    if (!Number.isFinite(x)) return NA;
    const v = Math.abs(x) / scale;
    let body: string;
    if (v === 0) body = "0";
    else if (v >= 1000 || Number.isInteger(v)) body = groupedFixed(v, 0);
    else if (v >= 1) body = groupedFixed(v, 2);
    else body = threeDigits(v);
    return `${x < 0 && body !== "0" ? "-" : ""}${opts.usd ? "$" : ""}${body}${body === "0" ? "" : suffix}`;
  };
}

/** Three significant digits as a plain decimal: 0.0000148, never 1.48e-5 (a reader takes either; the plain one costs fewer tokens). */
function threeDigits(v: number): string {
  const text = String(Number(v.toPrecision(3)));
  return text.includes("e") ? v.toFixed(Math.min(20, 2 - Math.floor(Math.log10(v)))) : text;
}
