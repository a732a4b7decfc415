// Checks the catalog against the service spec itself, so a transcription typo cannot hide.
// The spec lives beside the repository (../shared); a plain clone has no copy, so the check skips.
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

import { describe, expect, it } from "vitest";

import { skipping } from "../../harness/skips.js";
import { ASSET_SETS, type AssetSetId, endpointById, ENDPOINTS, fieldOf, VENUES } from "../../src/catalog/index.js";

const SPEC = fileURLToPath(new URL("../../../shared/spec/service-spec.md", import.meta.url));
const UPSTREAM = fileURLToPath(new URL("../../../shared/research/upstream.md", import.meta.url));
const present = existsSync(SPEC);
if (!present) skipping("the catalog against the service spec (test/catalog/spec.test.ts)", `place the spec at ${SPEC}`);

const ticks = (s: string) => [...s.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);

describe.skipIf(!present)("catalog matches the service spec", () => {
  const spec = present ? readFileSync(SPEC, "utf8") : "";

  it("set A: every ticker, in order, 210 in all", () => {
    const section = spec.split("Asset set A applies to all three.")[1]!.split("### Metric series endpoints")[0]!;
    const listed = section
      .split("\n")
      .filter((l) => l.startsWith("- "))
      .flatMap((l) => ticks(l.slice(l.indexOf(":") + 1)));
    expect(listed).toHaveLength(210);
    expect(ASSET_SETS.A.members).toEqual(listed);
  });

  it.each(["M1", "M2", "X1", "F1", "L1", "R1", "D1"] as const)("set %s", (id: AssetSetId) => {
    const line = spec.split("\n").find((l) => l.startsWith(`- ${id}`) && l.includes(":"))!;
    expect(ASSET_SETS[id].members).toEqual(ticks(line.slice(line.indexOf(":") + 1)));
  });

  it("set B is set A without the stablecoins the spec names", () => {
    const sentence = spec.split("\n").find((l) => l.includes("Set B is set A without"))!;
    const removed = new Set(ticks(sentence).filter((t) => t !== "asset"));
    expect(removed.size).toBe(6);
    expect(ASSET_SETS.B.members).toEqual(ASSET_SETS.A.members!.filter((a) => !removed.has(a)));
  });

  it("every OHLCV endpoint: path, field and parameters", () => {
    const rows = spec.split("\n").filter((l) => /^\| GET \| \/\{asset\}\//.test(l));
    expect(rows).toHaveLength(3);
    for (const row of rows) {
      const [, , path, returns] = row.split("|").map((c) => c.trim());
      const id = path!.replace("/{asset}/", "");
      const endpoint = endpointById(id)!;
      expect(endpoint, id).toBeDefined();
      expect(endpoint.kind).toBe("ohlcv");
      expect(returns!.startsWith(endpoint.field + " ")).toBe(true);
      expect(endpoint.params.includes("market_type")).toBe(id !== "spot/Trades");
    }
  });

  it("every metric series endpoint: path, field, asset set, extra parameter", () => {
    const setByText: Record<string, AssetSetId> = {
      M1: "M1",
      M2: "M2",
      X1: "X1",
      F1: "F1",
      L1: "L1",
      R1: "R1",
      D1: "D1",
      "M2 plus leo_eos": "M2_LEO",
      "btc only": "BTC_ONLY",
      "all_stablecoins, btc, eth": "STABLES_BTC_ETH",
      "lowercase ticker; the allowed set is not shown": "OPEN",
    };
    const rows = spec.split("\n").filter((l) => /^\| \/\{asset\}\//.test(l) && !l.includes("/..."));
    expect(rows).toHaveLength(24);
    for (const row of rows) {
      const [, path, field, set, extra] = row.split("|").map((c) => c.trim());
      const id = path!.replace("/{asset}/", "");
      const endpoint = endpointById(id)!;
      expect(endpoint, id).toBeDefined();
      expect(endpoint.kind).toBe("series");
      expect(endpoint.field).toBe(field);
      expect(endpoint.field).toBe(fieldOf(endpoint.segment));
      expect(endpoint.assetSet).toBe(setByText[set!]);
      const extras = endpoint.params.filter((p) => p !== "startDate" && p !== "endDate");
      expect(extras).toEqual(extra === "none" ? [] : [extra]);
    }
    expect(ENDPOINTS.filter((e) => e.kind === "series")).toHaveLength(24);
  });

  it("metrics-variation and the heatmap, 29 endpoints in all", () => {
    expect(spec).toContain("### GET /{asset}/derivatives/metrics-variation");
    expect(spec).toContain("### GET /liquidation_levels/heatmap");
    expect(endpointById("derivatives/metrics-variation")?.assetSet).toBe("B");
    expect(endpointById("liquidation_levels/heatmap")?.assetSet).toBe("A");
    expect(ENDPOINTS).toHaveLength(29);
    expect(new Set(ENDPOINTS.map((e) => e.id)).size).toBe(29);
  });

  it.skipIf(!existsSync(UPSTREAM))("the 47 venue ids of the upstream research", () => {
    const block = readFileSync(UPSTREAM, "utf8").split("## 6.")[1]!.split("```")[1]!;
    const ids = [...block.matchAll(/\d+ ([a-z]+)/g)].map((m) => m[1]);
    expect(VENUES).toEqual(ids);
  });
});
