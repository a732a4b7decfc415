// `npm run truth`: every invariant and calibration check of the embedded market with its figure
// (what was checked, the worst deviation). Exits 1 when a check fails. The same checks run in
// `npm test` (test/data-truth.test.ts).
import { CHECKS } from "../test/truth/index.js";

let failed = 0;
for (const check of CHECKS) {
  const t0 = performance.now();
  const r = check.run();
  const ms = Math.round(performance.now() - t0);
  if (!r.ok) failed++;
  process.stdout.write(`${r.ok ? "ok  " : "FAIL"} [${check.group}] ${check.id}: ${check.claim}\n       checked: ${r.checked}\n       worst:   ${r.worst}   (${ms} ms)\n`);
}
process.stdout.write(`\n${CHECKS.length - failed} of ${CHECKS.length} checks hold.\n`);
process.exit(failed ? 1 : 0);
