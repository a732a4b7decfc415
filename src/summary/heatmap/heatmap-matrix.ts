// Whole-matrix reductions of a heatmap's cells (row-major, price × time): the peak cell, totals per
// time column (each column is the liquidation map at one time, so summing across columns would add
// snapshots), and re-binning into a coarse grid whose cells are means of the original cells. Cells
// are intensities already (TypedHeatmap: nothing negative, null or infinite).

export const MAX_BINS = 24;

export interface ColumnTotals {
  /** Total of the latest column, the mean and the largest column total, and where that was. */
  latest: number;
  mean: number;
  max: number;
  maxCol: number;
}

/** Hottest cell (the later column wins a tie) and the totals per column of a rows × cols matrix. */
export function scanMatrix(
  cells: Float64Array,
  rows: number,
  cols: number,
): { columns: ColumnTotals | null; peak: { row: number; col: number; value: number } | null } {
  const totals = new Float64Array(cols);
  let best = 0;
  let bestRow = -1;
  let bestCol = -1;
  for (let i = 0; i < rows; i++) {
    const base = i * cols;
    for (let j = 0; j < cols; j++) {
      const v = cells[base + j]!;
      totals[j]! += v;
      if (v > best || (v === best && v > 0 && j > bestCol)) {
        best = v;
        bestRow = i;
        bestCol = j;
      }
    }
  }
  let columns: ColumnTotals | null = null;
  if (cols > 0 && rows > 0) {
    let sum = 0;
    let maxCol = 0;
    for (let j = 0; j < cols; j++) {
      sum += totals[j]!;
      if (totals[j]! > totals[maxCol]!) maxCol = j;
    }
    columns = { latest: totals[cols - 1]!, mean: sum / cols, max: totals[maxCol]!, maxCol };
  }
  return { columns, peak: bestRow < 0 ? null : { row: bestRow, col: bestCol, value: best } };
}

/** Column j of a rows × cols matrix. */
export function columnOf(cells: Float64Array, rows: number, cols: number, j: number): Float64Array {
  const column = new Float64Array(rows);
  for (let i = 0; i < rows; i++) column[i] = cells[i * cols + j]!;
  return column;
}

/** Bin b of `bins` over n items covers [start(b), start(b+1)): sizes differ by at most one. */
export function binStart(b: number, n: number, bins: number): number {
  return Math.floor((b * n) / bins);
}

export interface Rebinned {
  rowBins: number;
  colBins: number;
  /** Original row/column index ranges [start, end) of each bin. */
  rowRanges: Array<[number, number]>;
  colRanges: Array<[number, number]>;
  /**
   * cells[r][c]: mean of the original cells in row bin r (ascending price) and column bin c. Bins
   * differ in size by at most one level or column; a mean, unlike a sum, does not make the larger
   * ones look hotter.
   */
  cells: number[][];
}

/** Averages a rows × cols matrix into at most maxRows × maxCols bins; every cell lands in exactly one bin. */
export function rebin(cells: Float64Array, rows: number, cols: number, maxRows = MAX_BINS, maxCols = MAX_BINS): Rebinned {
  const rowBins = Math.min(rows, Math.max(1, Math.floor(maxRows)));
  const colBins = Math.min(cols, Math.max(1, Math.floor(maxCols)));
  const rowRanges = ranges(rows, rowBins);
  const colRanges = ranges(cols, colBins);
  const colBinOf = new Int32Array(cols);
  colRanges.forEach(([start, end], c) => colBinOf.fill(c, start, end));
  const binned = Array.from({ length: rowBins }, () => new Array<number>(colBins).fill(0));
  rowRanges.forEach(([start, end], r) => {
    const out = binned[r]!;
    for (let i = start; i < end; i++) {
      const base = i * cols;
      for (let j = 0; j < cols; j++) out[colBinOf[j]!]! += cells[base + j]!;
    }
    for (let c = 0; c < colBins; c++) out[c] = out[c]! / ((end - start) * (colRanges[c]![1] - colRanges[c]![0]));
  });
  return { rowBins, colBins, rowRanges, colRanges, cells: binned };
}

function ranges(n: number, bins: number): Array<[number, number]> {
  return Array.from({ length: bins }, (_, b) => [binStart(b, n, bins), binStart(b + 1, n, bins)] as [number, number]);
}
