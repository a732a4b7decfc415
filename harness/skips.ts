// What a test run leaves out, said once at its end: a suite that cannot run here (no PostgreSQL, no
// Chromium, no Node 22-26 runtimes, no dist/, no spec beside the checkout) names its group and how to
// run it through `skipping()`; harness/skip-reporter.ts prints them all as the run's last line. Outside
// a vitest run with that reporter the note goes to stderr as it is.
import { appendFileSync } from "node:fs";

/** Where the reporter collects the notes (set in the main process before the test processes start). */
export const SKIPS_FILE_VAR = "CRYPTO_METRICS_TEST_SKIPS_FILE";

export interface SkipNote {
  /** The group left out, as a reader names it: "PostgreSQL store tests". */
  group: string;
  /** What runs it: a command, or what to install or set. */
  how: string;
}

export function skipping(group: string, how: string): void {
  const file = process.env[SKIPS_FILE_VAR];
  if (file) appendFileSync(file, `${JSON.stringify({ group, how } satisfies SkipNote)}\n`);
  else process.stderr.write(`skipped ${group}: ${how}\n`);
}
