// `npm run truth`: every invariant and calibration check of the embedded market with its figure
// (what was checked, the worst deviation), then the dated real-world facts outside the calibration
// (harness/truth/facts.ts) by kind. Exits 1 when a check fails or the facts fall short of their
// target (90 % within tolerance, none beyond 5x). The checks also run in `npm test`
// (test/truth/checks.test.ts, test/truth/facts.test.ts).
import { CHECKS } from "../harness/truth/index.js";
import { FACT_TARGET, scoreFacts, TOLERANCE } from "../harness/truth/generalisation.js";

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
  `Dated facts outside the calibration (harness/truth/facts.ts):\n  ${pad("kind", 11)}${pad("facts", 7)}${pad("within", 8)}${pad("tolerance", 11)}${pad("median", 9)}worst\n`,
);
for (const r of facts.rows) {
  process.stdout.write(
    `  ${pad(r.kind, 11)}${pad(r.facts, 7)}${pad(r.within, 8)}${pad(`${TOLERANCE[r.kind]}x`, 11)}${pad(`${r.median.toFixed(3)}x`, 9)}${r.worst.toFixed(3)}x (${r.worstWhere})\n`,
  );
}
const share = facts.within / facts.total;
const met = share >= FACT_TARGET && facts.beyond5 === 0;
process.stdout.write(
  `  ${facts.within} of ${facts.total} within tolerance (${(100 * share).toFixed(1)} %), ${facts.beyond5} beyond 5x: ${met ? "target met" : `target (${100 * FACT_TARGET} % within, none beyond 5x) NOT met`}\n`,
);
for (const m of facts.misses) process.stdout.write(`    off: ${m}\n`);
process.exit(failed || !met ? 1 : 0);
