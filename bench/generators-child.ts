// Runs the in-process measurements in a fresh process and prints them as JSON on stdout: the
// bench's own heap (MCP client, tokenizer tables) would otherwise slow every full GC they cause.
import { measureGenerators, measureHeatmaps } from "./generators.js";

process.stdout.write(JSON.stringify({ generators: measureGenerators(), heatmaps: measureHeatmaps() }));
