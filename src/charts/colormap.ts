// Viridis: perceptually uniform, readable by colour-blind viewers and in greyscale; dark purple for
// "nothing here" through teal to yellow for the largest clusters (the ramp traders know).
const STOPS: ReadonlyArray<readonly [number, number, number]> = [
  [68, 1, 84],
  [72, 36, 117],
  [65, 68, 135],
  [53, 95, 141],
  [42, 120, 142],
  [33, 145, 140],
  [34, 168, 132],
  [68, 191, 112],
  [122, 209, 81],
  [189, 223, 38],
  [253, 231, 37],
];

/** 256 RGB triples, index 0 = lowest. */
export const VIRIDIS: Uint8Array = (() => {
  const lut = new Uint8Array(256 * 3);
  for (let i = 0; i < 256; i++) {
    const x = (i / 255) * (STOPS.length - 1);
    const k = Math.min(STOPS.length - 2, Math.floor(x));
    const f = x - k;
    for (let c = 0; c < 3; c++) lut[i * 3 + c] = Math.round(STOPS[k]![c]! * (1 - f) + STOPS[k + 1]![c]! * f);
  }
  return lut;
})();

/**
 * Cell value → colour position in [0, 1]. A square-root scale: liquidation notional is heavy-tailed,
 * so a linear ramp would show the one peak and hide every other band; the colour bar is labelled on
 * the same scale so a reader can read values back.
 */
export function colorPosition(v: number, max: number): number {
  if (!(v > 0) || !(max > 0)) return 0;
  return Math.min(1, Math.sqrt(v / max));
}

/** The ramp's colour at position p in [0, 1]. */
export function rampRgb(p: number): [number, number, number] {
  const i = Math.max(0, Math.min(255, Math.round(p * 255))) * 3;
  return [VIRIDIS[i]!, VIRIDIS[i + 1]!, VIRIDIS[i + 2]!];
}

export function cssColor(p: number): string {
  return `rgb(${rampRgb(p).join(",")})`;
}

/** RGBA pixels of a rows × cols matrix (row 0 = lowest price drawn at the bottom). */
export function matrixPixels(values: ArrayLike<number>, rows: number, cols: number, max: number): Uint8ClampedArray {
  const out = new Uint8ClampedArray(rows * cols * 4);
  for (let r = 0; r < rows; r++) {
    const y = rows - 1 - r;
    for (let c = 0; c < cols; c++) {
      const i = Math.round(colorPosition(values[r * cols + c]!, max) * 255) * 3;
      const o = (y * cols + c) * 4;
      out[o] = VIRIDIS[i]!;
      out[o + 1] = VIRIDIS[i + 1]!;
      out[o + 2] = VIRIDIS[i + 2]!;
      out[o + 3] = 255;
    }
  }
  return out;
}
