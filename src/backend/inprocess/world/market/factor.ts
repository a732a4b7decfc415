// The market factors: BTC's moves, which every other coin carries in part, and an alt factor,
// the moves altcoins share beyond BTC's (rotation into and out of alts). Each coin's daily and
// minute noise is a loading (beta) on BTC's, a loading (alt) on the alt factor and a noise of its
// own, sized so that the three give the coin's total volatility (what its anchors imply), a chosen
// correlation with BTC (rho) and a chosen correlation with the alt factor (gamma):
//   beta = rho · sigma / sigma_btc,   alt = gamma · sigma,   own noise = sigma · sqrt(1 − rho² − gamma²).
// Two coins then correlate by rho₁·rho₂ + gamma₁·gamma₂. What the market shows over 2021–2025:
// ETH ~0.8 with BTC, large caps ~0.7, small caps ~0.55; majors with each other ~0.7–0.85 (ETH–SOL,
// ETH–BNB), small caps with each other ~0.4–0.5; exchange tokens whose price is held up by
// buybacks and burns from exchange revenue barely move with the market (LEO ~0.2–0.3 with BTC,
// OKB ~0.4–0.5); pegged and gold tokens none (they track their peg). A sector moves together
// beyond both: meme coins load on a meme factor too (kappa), DOGE–SHIB ~0.75–0.8, PEPE–SHIB ~0.75.
import { hash2, mix32, unit } from "../../util/hash.js";

export interface Loadings {
  /** Target correlation of the coin's returns with BTC's. */
  rho: number;
  /** Loading on BTC's excursions (daily and minute). */
  beta: number;
  /** Loading on the alt factor (daily log volatility carried by it; 0 for BTC, pegs and gold). */
  alt: number;
  /** Loading on its sector's factor (daily log volatility; 0: no sector). */
  sector: number;
  /** Seed of that sector's walks (0: none). */
  sectorSeed: number;
  /** Volatility of the coin's own noise (daily log). */
  noise: number;
}

export interface LoadingInput {
  /** Ticker whose market the coin is (its nature may be known by name). */
  base: string;
  model: "btc" | "eth" | "gold" | "stable" | "alt";
  seed: number;
  /** Total daily log volatility. */
  sigma: number;
  /** Market capitalization at the reference day (USD). */
  marketCap: number;
}

/** Below this daily volatility a coin is a yield-bearing or managed token, not a market asset. */
const MIN_MARKET_SIGMA = 0.01;
/** Correlation of the smallest caps and of the largest (ETH apart), and the cap range between. */
const RHO_SMALL = 0.55;
const RHO_LARGE = 0.7;
/** Correlation with the alt factor of the smallest caps and of the largest. */
const GAMMA_SMALL = 0.35;
const GAMMA_LARGE = 0.5;
const CAP_SMALL = 3e8;
const CAP_LARGE = 3e10;
/** Per-coin spread around the level its cap gives (uniform, ±). */
const RHO_SPREAD = 0.05;

/**
 * Coins whose nature sets their co-movement rather than their size: exchange tokens with
 * buyback-and-burn support (LEO: Bitfinex buys back with 27 % of iFinex revenue; OKB: OKX's
 * buybacks and the 2025 burn to a 21M cap; HT: Huobi's buybacks).
 */
const NATURE: Record<string, { rho: number; gamma: number }> = {
  leo: { rho: 0.25, gamma: 0.1 },
  okb: { rho: 0.45, gamma: 0.25 },
  ht: { rho: 0.45, gamma: 0.25 },
};

/** Seed of the meme sector's daily and minute walks. */
export const MEME_FACTOR_SEED = 0x3c6ef372;
/** Correlation of a meme coin with the meme factor. */
const KAPPA_MEME = 0.3;
/**
 * Correlation of a meme coin's daily closes with the meme leader's own moves (DOGE's beyond BTC's)
 * where the leader's path holds real weeks: the memes' pair correlations of the market (~0.7).
 */
export const KAPPA_LEADER = 0.4;
/** Coins whose price is a meme's: they rise and fall with each other beyond the market's moves. */
export const MEMES = new Set(["doge", "shib", "pepe", "bonk", "floki", "wif", "brett", "turbo", "fartcoin", "pengu", "spx", "trump"]);

export function loadingsOf(p: LoadingInput, btcSigma: number): Loadings {
  if (p.model === "btc") return { rho: 1, beta: 1, alt: 0, sector: 0, sectorSeed: 0, noise: 0 };
  if (p.model === "stable" || p.model === "gold" || p.sigma < MIN_MARKET_SIGMA)
    return { rho: 0, beta: 0, alt: 0, sector: 0, sectorSeed: 0, noise: p.sigma };
  let rho: number;
  let gamma: number;
  const nature = NATURE[p.base];
  if (p.model === "eth") [rho, gamma] = [0.8, 0.45];
  else if (nature) [rho, gamma] = [nature.rho, nature.gamma];
  else {
    const x = (Math.log10(Math.max(p.marketCap, 1)) - Math.log10(CAP_SMALL)) / (Math.log10(CAP_LARGE) - Math.log10(CAP_SMALL));
    const size = Math.min(1, Math.max(0, x));
    const spread = RHO_SPREAD * (2 * unit(mix32(p.seed ^ 0x3c6ef372)) - 1);
    rho = RHO_SMALL + (RHO_LARGE - RHO_SMALL) * size + spread;
    gamma = GAMMA_SMALL + (GAMMA_LARGE - GAMMA_SMALL) * size + RHO_SPREAD * (2 * unit(mix32(p.seed ^ 0x7f4a7c15)) - 1);
  }
  const kappa = MEMES.has(p.base) ? KAPPA_MEME : 0;
  return {
    rho,
    beta: (rho * p.sigma) / btcSigma,
    alt: gamma * p.sigma,
    sector: kappa * p.sigma,
    sectorSeed: kappa ? MEME_FACTOR_SEED : 0,
    noise: p.sigma * Math.sqrt(1 - rho * rho - gamma * gamma - kappa * kappa),
  };
}

/** Seed of the alt factor's daily and minute walks (one for the whole market). */
export const ALT_FACTOR_SEED = 0x6a09e667;

const MINUTES = 1440;
/** 1 / standard deviation of a sum of four uniform bytes (each of variance (256² − 1) / 12). */
export const IRWIN_HALL_4 = 1 / Math.sqrt((4 * (256 * 256 - 1)) / 12);

/**
 * A day's minute walk (1,441 cumulative sums from 0) at (seed, day): one hash per minute, four
 * bytes summed (Irwin–Hall, σ-normalized), close enough to normal for a minute's move.
 */
export function fillMinuteWalk(out: Float64Array, seed: number, minuteSigma: number, day: number): void {
  const scale = minuteSigma * IRWIN_HALL_4;
  const base = day * MINUTES;
  let walk = 0;
  out[0] = 0;
  for (let m = 1; m <= MINUTES; m++) {
    const h = hash2(seed, base + m);
    walk += scale * ((h & 0xff) + ((h >>> 8) & 0xff) + ((h >>> 16) & 0xff) + (h >>> 24) - 510);
    out[m] = walk;
  }
}

/**
 * BTC's minute walk by day, shared by BTC's own minute path and every coin that loads on it. A
 * direct-mapped table of recent days: requests read runs of days, often BTC's and then a coin's
 * over the same range, so the walk of a day is usually hashed once.
 */
export class MinuteFactor {
  private readonly days: Float64Array;
  private readonly walks: Float64Array[];

  constructor(
    private readonly seed: number,
    private readonly minuteSigma: number,
    private readonly slots = 256,
  ) {
    this.days = new Float64Array(slots).fill(NaN);
    this.walks = Array.from({ length: slots }, () => new Float64Array(MINUTES + 1));
  }

  /** The walk of `day` (do not write to it; valid until the slot is reused). */
  walk(day: number): Float64Array {
    const slot = ((day % this.slots) + this.slots) % this.slots;
    const walk = this.walks[slot]!;
    if (this.days[slot] !== day) {
      fillMinuteWalk(walk, this.seed, this.minuteSigma, day);
      this.days[slot] = day;
    }
    return walk;
  }
}
