// The data's clock: the market has happened up to the last whole minute before "now". Every
// bucket, candle and daily value is cut there, so nothing is known before it happens and a
// response depends on "now" only through that minute.
import { DAY_MS, MINUTE_MS } from "../../../catalog/index.js";

export { MINUTE_MS };

/** The instant up to which the market has happened: `nowMs` floored to the minute. */
export function dataClock(nowMs: number): number {
  return Math.floor(nowMs / MINUTE_MS) * MINUTE_MS;
}

/** Last day whose daily value is published: daily metrics appear once their day has ended. */
export function lastCompleteDay(nowMs: number): number {
  return Math.floor(dataClock(nowMs) / DAY_MS) - 1;
}
