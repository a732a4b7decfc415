// Every data-truth check, in the order `npm run truth` prints them.
import { anchorsRecord, beforeListing, calibrationAll, calibrationMonthly, calibrationRef, supplyPoints } from "./calibration.js";
import { addressCounts, bandIndependence, bands, hashprice, hostChain } from "./chain.js";
import type { Check } from "./common.js";
import { altCorrelation, dailyCorrelation, hourlyCorrelation } from "./correlation.js";
import { bigDayHours, crashLows, dailyMoves, dailyRanges, dailyVolatility, highsUnderAth } from "./extremes.js";
import { candlesNest, depegs, holidayVolume, pegs, venueHours, wholeCounts } from "./market.js";
import { difficultyEpochs, hashpriceReward, otherRetargets } from "./mining.js";
import { noLookAhead } from "./time.js";
import { capitalInLoss, floors, inProfit, lthCost, realizedCost } from "./valuation.js";

export type { Check, CheckResult } from "./common.js";

export const CHECKS: readonly Check[] = [
  calibrationMonthly,
  calibrationAll,
  calibrationRef,
  anchorsRecord,
  supplyPoints,
  dailyCorrelation,
  altCorrelation,
  hourlyCorrelation,
  beforeListing,
  noLookAhead,
  highsUnderAth,
  dailyRanges,
  dailyVolatility,
  dailyMoves,
  bigDayHours,
  crashLows,
  bands,
  bandIndependence,
  wholeCounts,
  candlesNest,
  inProfit,
  capitalInLoss,
  lthCost,
  realizedCost,
  floors,
  hashprice,
  difficultyEpochs,
  otherRetargets,
  hashpriceReward,
  venueHours,
  holidayVolume,
  pegs,
  depegs,
  addressCounts,
  hostChain,
];
