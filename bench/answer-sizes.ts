// The worst default answer per tool and timeframe over the 20 largest assets and a stablecoin, in
// o200k tokens, text and structuredContent: every call in process (tokens do not depend on the
// transport), the clock pinned as in the other sections.
import { writeFileSync } from "node:fs";
import { join } from "node:path";

import { defaultCalls, LARGEST_ASSETS, STABLECOIN, worstAnswers } from "../harness/answer-sizes.js";
import { mcpRig } from "../harness/mcp.js";
import { InProcessBackend } from "../src/backend/inprocess/backend.js";
import { NOW, type Sandbox } from "./proc.js";
import type { Row, Section } from "./table.js";

const BUDGET = 1_500;

export const SIZES: Section = {
  name: "sizes",
  progress: `default answers of every tool and timeframe over ${LARGEST_ASSETS.length} assets and ${STABLECOIN}: worst tokens`,
  async run(sandbox: Sandbox) {
    const keysFile = join(sandbox.dir, "sizes-keys.json");
    writeFileSync(
      keysFile,
      JSON.stringify({
        plans: { wide: { credits: 1e9, rateLimit: { requests: 100_000, windowSeconds: 1 } } },
        keys: [{ key: "sizes", plan: "wide" }],
      }),
    );
    const now = () => Date.parse(NOW);
    const backend = await InProcessBackend.create({ apiKey: "sizes", keysFile, stateDir: join(sandbox.dir, "sizes-state"), now });
    const rig = await mcpRig(backend, { configuredKey: "sizes", now });
    try {
      const { worst, errors } = await worstAnswers(defaultCalls([...LARGEST_ASSETS, STABLECOIN]), (tool, args) => rig.call(tool, args));
      const rows: Row[] = worst.map((w) => ({
        metric: `default answer, worst of ${w.calls}: ${w.tool}${w.timeframe === "-" ? "" : ` ${w.timeframe}`} (text / structured)`,
        unit: "tokens",
        ours: Math.max(w.text, w.structured),
        oursDetail: `text ${w.text} (${w.textArgs["asset"] ?? w.textArgs["metric"] ?? "no args"}), structured ${w.structured}; structured/text ≤ ${w.ratio.toFixed(2)}`,
        target: { on: "ours", op: "<=", value: BUDGET },
      }));
      return { rows, detail: { worst, errors: errors.length } };
    } finally {
      await rig.close();
      await backend.close();
    }
  },
};
