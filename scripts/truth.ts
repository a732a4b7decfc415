// `npm run truth`: every invariant and calibration check of the embedded market with its figure
// (what was checked, the worst deviation), then the dated real-world facts outside the calibration
// (harness/truth/facts.ts) by class and kind, and the random-day check of the largest coins' closes
// (harness/truth/random-days.ts). Exits 1 when a check fails or the facts or days fall short of their
// targets (95 % of facts within tolerance and none beyond 3x; 90 % of days within 15 % for BTC and
// ETH, 20 % for the others). The checks also run in `npm test` (test/truth/).
import { FACT_LIMIT, FACT_TARGET, openFacts, scoreFacts, TOLERANCE } from "../harness/truth/generalisation.js";
import { CHECKS } from "../harness/truth/index.js";
import { DAY_TARGET, dayTolerance, scoreDays } from "../harness/truth/random-days.js";

let failed = 0;
for (const check of CHECKS) {
  const t0 = performance.now();
  const r = check.run();
  const ms = Math.round(performance.now() - t0);
  if (!r.ok) failed++;
  process.stdout.write(
    `${r.ok ? "ok  " : "FAIL"} [${check.group}] ${check.id}: ${check.claim}\n       checked: ${r.checked}\n       worst:   ${r.worst}   (${ms} ms)\n`,
  );
}
process.stdout.write(`\n${CHECKS.length - failed} of ${CHECKS.length} checks hold.\n\n`);

const facts = scoreFacts();
const pad = (s: string | number, n: number) => String(s).padEnd(n);
process.stdout.write(
  `Dated facts outside the calibration (harness/truth/facts.ts), by class:\n  ${pad("class", 24)}${pad("kind", 11)}${pad("facts", 7)}${pad("within", 8)}${pad("tolerance", 11)}${pad("median", 9)}worst\n`,
);
for (const r of facts.rows) {
  process.stdout.write(
    `  ${pad(r.class, 24)}${pad(r.kind, 11)}${pad(r.facts, 7)}${pad(r.within, 8)}${pad(`${TOLERANCE[r.kind]}x`, 11)}${pad(`${r.median.toFixed(3)}x`, 9)}${r.worst.toFixed(3)}x (${r.worstWhere})\n`,
  );
}
const share = facts.within / facts.total;
const met = share >= FACT_TARGET && facts.beyond === 0;
process.stdout.write(
  `  ${facts.within} of ${facts.total} within tolerance (${(100 * share).toFixed(1)} %), ${facts.beyond} beyond ${FACT_LIMIT}x: ${met ? "target met" : `target (${100 * FACT_TARGET} % within, none beyond ${FACT_LIMIT}x) NOT met`}\n`,
);
for (const m of facts.misses) process.stdout.write(`    off: ${m}\n`);
const open = openFacts();
if (open.length) {
  process.stdout.write(
    `  Published facts the market does not follow yet, outside the score above (OPEN_FACTS in harness/truth/facts.ts):\n`,
  );
  for (const o of open) process.stdout.write(`    open: ${o}\n`);
}

const days = scoreDays();
process.stdout.write(
  `\nRandom days of the largest coins, 2019 to 2025 (no anchor or event day; harness/truth/random-days-data.ts):\n  ${pad("coin", 6)}${pad("days", 6)}${pad("within", 8)}${pad("tolerance", 11)}${pad("median", 9)}worst\n`,
);
for (const r of days.rows) {
  process.stdout.write(
    `  ${pad(r.coin, 6)}${pad(r.days, 6)}${pad(r.within, 8)}${pad(`${Math.round(100 * (dayTolerance(r.coin) - 1))} %`, 11)}${pad(`${r.median.toFixed(3)}x`, 9)}${r.worst.toFixed(3)}x (${r.worstWhere})\n`,
  );
}
const dayShare = days.within / days.total;
const daysMet = dayShare >= DAY_TARGET;
process.stdout.write(
  `  ${days.within} of ${days.total} days within (${(100 * dayShare).toFixed(1)} %): ${daysMet ? "target met" : `target (${100 * DAY_TARGET} %) NOT met`}\n`,
);
process.exit(failed || !met || !daysMet ? 1 : 0);
