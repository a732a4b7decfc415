// The embedded market's origin: real history through the anchors' last day, a simulated continuation after it.
import { DAY_MS } from "../../catalog/index.js";
import type { DataOrigin } from "../types.js";
import { REF_DAY } from "./world/levels.js";

export const SIMULATED_ORIGIN: DataOrigin = Object.freeze({ kind: "simulated", calibratedThroughMs: REF_DAY * DAY_MS });
